import { RunnerError } from '../errors/runner-error';

/** The engine socket used when `DOCKER_HOST` is unset. */
export const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';

/**
 * docs/runners.md: only a local engine. Unset (undefined, '' or whitespace) → the default socket;
 * `unix:///abs/path` → that path; anything else (tcp://, ssh://, npipe:, relative) →
 * `remote_engine_unsupported` (receipts are read from the host filesystem).
 */
export function localEngineSocket(dockerHost: string | undefined, agent?: string): string {
  if (dockerHost === undefined || dockerHost.trim() === '') return DEFAULT_DOCKER_SOCKET;
  const match = /^unix:\/\/(\/[^\0]*)$/.exec(dockerHost);
  if (match?.[1] !== undefined) return match[1];
  throw new RunnerError('remote_engine_unsupported', 'DOCKER_HOST must be unset or unix:// (a remote engine cannot see host receipts)', {
    ...(agent === undefined ? {} : { agent }),
  });
}
