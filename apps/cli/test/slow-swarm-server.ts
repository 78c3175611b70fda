/**
 * A real HTTP server (port 0) for the long swarm-wide commands: one slow route that answers after a delay, is
 * cut, or never answers, while the swarm's agents move from `from` to `to` and /healthz answers or hangs.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowScript {
  /** `METHOD /path` of the slow request (the query string is ignored). */
  readonly route: string;
  /** Its answer: status and body, sent `answerAfterMs` after it arrived (undefined: never answered). */
  readonly answer: { status: number; body: unknown };
  readonly answerAfterMs?: number;
  /** The slow request's connection is destroyed after this many ms (a proxy or client header timeout). */
  readonly cutAfterMs?: number;
  /** /healthz answers (false: it hangs, as the whole server does). */
  readonly healthy: boolean;
  /** Agent states before and during the slow request, and once it is done (`gone`: the swarm is no longer listed). */
  readonly from: string;
  readonly to: string | 'gone';
  /** How long the work takes server-side when the request is never answered. */
  readonly workMs?: number;
}

export interface SlowServer {
  readonly url: string;
  /** `METHOD /path?query` of every request, in order. */
  readonly paths: string[];
  close(): Promise<void>;
}

const AGENTS = ['w_1', 'w_2', 'w_3'];

export function slowSwarmServer(script: SlowScript): Promise<SlowServer> {
  const paths: string[] = [];
  let slowAt: number | undefined;
  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const workMs = script.answerAfterMs ?? script.workMs ?? 900;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    paths.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.url === '/healthz') return script.healthy ? send(res, 200, { status: 'ok' }) : undefined;
    if (!script.healthy) return undefined; // the whole server hangs
    const path = (req.url ?? '').split('?')[0];
    if (`${req.method} ${path}` === script.route) {
      slowAt = Date.now();
      if (script.answerAfterMs !== undefined) setTimeout(() => send(res, script.answer.status, script.answer.body), script.answerAfterMs);
      if (script.cutAfterMs !== undefined) setTimeout(() => req.socket.destroy(), script.cutAfterMs);
      return undefined;
    }
    if (path === '/api/swarms/big/events') return send(res, 200, { events: [], count: 0 });
    if (path === '/api/swarms/big/agents') {
      const since = slowAt === undefined ? -1 : Date.now() - slowAt;
      const done = since >= workMs - 50;
      if (done && script.to === 'gone') return send(res, 404, { error: 'swarm_not_found', message: 'No swarm named big.' });
      const state = since < 0 || !done ? script.from : script.to;
      return send(res, 200, { agents: AGENTS.map((name) => ({ name, state })) });
    }
    return send(res, 404, { error: 'not_found', message: 'no route' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        paths,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}
