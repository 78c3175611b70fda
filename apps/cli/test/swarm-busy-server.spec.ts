/**
 * `restart`, `scale` and `stop` of a whole swarm against a server that takes longer than the request timeout to
 * answer (every agent is stopped or started before the answer): as `start`, the CLI shows progress while the
 * health probe answers, never sends the request twice, follows the swarm when a live server gives no answer, and
 * reports `unreachable` only when the server itself stops answering. A real HTTP server on port 0.
 */
import { slowSwarmServer, type SlowScript } from './slow-swarm-server';
import { cli } from './support';

/** The request timeout of these runs: the slow request takes several of them. */
const TIMEOUT_MS = 300;

interface Command {
  readonly name: string;
  readonly argv: string[];
  readonly route: string;
  readonly answer: SlowScript['answer'];
  readonly from: string;
  readonly to: string;
  /** The progress line shown while the request is unanswered. */
  readonly progress: string;
  /** stdout of an answered request, and of a followed one. */
  readonly answered: string;
  readonly followed: string;
}

const COMMANDS: readonly Command[] = [
  {
    name: 'restart',
    argv: ['restart', 'big'],
    route: 'POST /api/swarms/big/restart',
    answer: { status: 200, body: { status: 'restarted', swarm_name: 'big', delete_data: false } },
    from: 'starting',
    to: 'idle',
    progress: 'big: agents ready 0/3',
    answered: 'restarted big\n',
    followed: 'restarted big: 3/3 agents ready\n',
  },
  {
    name: 'scale',
    argv: ['scale', 'big', 'w', '3'],
    route: 'POST /api/swarms/big/agents/w/scale',
    answer: { status: 200, body: { status: 'ok', result: { added: ['w_1', 'w_2', 'w_3'], removed: [], failed: [] } } },
    from: 'starting',
    to: 'idle',
    progress: 'big: agents ready 0/3',
    answered: 'scaled big/w to 3: added w_1,w_2,w_3 removed -\n',
    followed: 'scaled big: 3/3 agents ready\n',
  },
  {
    name: 'stop',
    argv: ['stop', 'big'],
    route: 'DELETE /api/swarms/big',
    answer: { status: 200, body: { status: 'stopped', swarm_name: 'big' } },
    from: 'stopping',
    to: 'stopped',
    progress: 'big: agents stopped 0/3',
    answered: 'big: stopped\n',
    followed: 'big: stopped\n',
  },
];

const sentOnce = (paths: readonly string[], route: string): number => paths.filter((p) => p.split('?')[0] === route).length;

describe.each(COMMANDS)('genswarms $name of a whole swarm against a busy server', (c) => {
  const script = { route: c.route, answer: c.answer, from: c.from, to: c.to };

  it('waits past the request timeout while the server answers its health probe, showing progress', async () => {
    const server = await slowSwarmServer({ ...script, answerAfterMs: 6 * TIMEOUT_MS, healthy: true });
    try {
      const r = await cli(c.argv, { GENSWARMS_URL: server.url }, { requestTimeoutMs: TIMEOUT_MS });
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: c.answered });
      expect(r.stderr).toContain(c.progress);
      expect(r.stderr).not.toContain('unreachable');
      expect(sentOnce(server.paths, c.route)).toBe(1); // a swarm-wide request is never sent twice
    } finally {
      await server.close();
    }
  });

  it('follows the swarm when the request is cut but the server still answers', async () => {
    const server = await slowSwarmServer({ ...script, cutAfterMs: 2 * TIMEOUT_MS, workMs: 5 * TIMEOUT_MS, healthy: true });
    try {
      const r = await cli(c.argv, { GENSWARMS_URL: server.url }, { requestTimeoutMs: TIMEOUT_MS });
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: c.followed });
      expect(r.stderr).toContain(`big: the ${c.name} request got no answer but the server is up: following the swarm`);
      expect(sentOnce(server.paths, c.route)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('prints a refusal with its detail lines (exit 1), nothing followed', async () => {
    const body = {
      error: 'host_limit',
      message: 'would take the host past kernel.pid_max',
      limit: 'kernel.pid_max',
      fix: 'sysctl -w kernel.pid_max=40000',
    };
    const server = await slowSwarmServer({ ...script, answer: { status: 503, body }, answerAfterMs: 0, healthy: true });
    try {
      const r = await cli(c.argv, { GENSWARMS_URL: server.url }, { requestTimeoutMs: TIMEOUT_MS });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('host_limit: would take the host past kernel.pid_max');
      expect(r.stderr).toContain('  fix: sysctl -w kernel.pid_max=40000');
      expect(server.paths.map((p) => p.split('?')[0])).toEqual([c.route]);
    } finally {
      await server.close();
    }
  });

  it('still reports unreachable (exit 3) when the server stops answering altogether', async () => {
    const server = await slowSwarmServer({ ...script, healthy: false });
    try {
      const r = await cli(c.argv, { GENSWARMS_URL: server.url }, { requestTimeoutMs: TIMEOUT_MS });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/unreachable: cannot reach http:\/\/127\.0\.0\.1:\d+ /);
    } finally {
      await server.close();
    }
  });
});

describe('genswarms stop --purge of a busy server', () => {
  it('follows until the swarm is gone', async () => {
    const server = await slowSwarmServer({
      route: 'DELETE /api/swarms/big',
      answer: { status: 200, body: { status: 'purged', swarm_name: 'big' } },
      from: 'stopping',
      to: 'gone',
      cutAfterMs: 2 * TIMEOUT_MS,
      workMs: 5 * TIMEOUT_MS,
      healthy: true,
    });
    try {
      const r = await cli(['stop', 'big', '--purge'], { GENSWARMS_URL: server.url }, { requestTimeoutMs: TIMEOUT_MS });
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: 'big: purged\n' });
      expect(server.paths).toContain('DELETE /api/swarms/big?purge=true');
    } finally {
      await server.close();
    }
  });
});
