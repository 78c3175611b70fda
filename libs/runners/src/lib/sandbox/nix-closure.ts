import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';

/** nix-store query bound (ms): a plan must not hang on a wedged store. */
export const NIX_QUERY_TIMEOUT_MS = 30000;
const NIX_STORE_PREFIX = '/nix/store/';

/**
 * `nix-store --query --requisites <pkg>` (argv only): every path must be a /nix/store entry and the
 * closure non-empty, else `validation_failed` (docs/runners.md). Never all of /nix/store.
 */
export function queryNixClosure(nixStore: string | undefined, nixPackage: string | undefined, agent: string): readonly string[] {
  if (nixPackage === undefined || !isStorePath(nixPackage)) {
    throw new RunnerError('validation_failed', 'host_nix needs nix_package inside /nix/store/', { agent });
  }
  // a config this host cannot run: refused at plan (and by config validate), not a late runner failure
  if (nixStore === undefined)
    throw new RunnerError('validation_failed', "client_source host_nix needs Nix, but nix-store is not on the server's PATH", { agent });
  const result = spawnSync(nixStore, ['--query', '--requisites', nixPackage], {
    shell: false,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {},
    timeout: NIX_QUERY_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new RunnerError('validation_failed', 'nix-store could not list the closure of nix_package', { agent });
  const paths = result.stdout.split('\n').filter((line) => line.length > 0);
  if (paths.length === 0) throw new RunnerError('validation_failed', 'the nix_package closure is empty', { agent });
  if (!paths.every(isStorePath)) throw new RunnerError('validation_failed', 'a requisite lies outside /nix/store', { agent });
  return paths;
}

function isStorePath(p: string): boolean {
  return p.startsWith(NIX_STORE_PREFIX) && p.length > NIX_STORE_PREFIX.length && path.posix.normalize(p) === p && !p.includes('\0');
}
