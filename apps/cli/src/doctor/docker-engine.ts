import { request } from 'node:http';

type Env = Readonly<Record<string, string | undefined>>;

/** A local engine only (the docker runner refuses remote engines, docs/runners.md). */
export const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';
const DOCKER_REQUEST_TIMEOUT_MS = 3000;

/** The engine socket `DOCKER_HOST` names (unset → the default), or the remote scheme it names instead. */
export function dockerSocketOf(env: Env): { kind: 'local'; socketPath: string } | { kind: 'remote'; scheme: string } {
  const host = env['DOCKER_HOST']?.trim() ?? '';
  if (host === '') return { kind: 'local', socketPath: DEFAULT_DOCKER_SOCKET };
  if (!host.startsWith('unix://')) return { kind: 'remote', scheme: host.split(':')[0] ?? '' };
  return { kind: 'local', socketPath: host.slice('unix://'.length) };
}

/** `GET path` on the engine socket: the HTTP status, or why no answer came (errno code, timeout). */
export function engineGet(
  socketPath: string,
  path: string,
): Promise<{ kind: 'answered'; status: number } | { kind: 'failed'; why: string }> {
  return new Promise((resolve) => {
    const req = request({ socketPath, path, method: 'GET', timeout: DOCKER_REQUEST_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve({ kind: 'answered', status: res.statusCode ?? 0 }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ kind: 'failed', why: err.code ?? err.message }));
    req.end();
  });
}
