import { spawnSync } from 'node:child_process';
import { lstatSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, MountSpec, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { assertSafeHostPath } from './mount-safety';

/** nix-store query bound (ms): a plan must not hang on a wedged store. */
export const NIX_QUERY_TIMEOUT_MS = 30000;
const NIX_STORE_PREFIX = '/nix/store/';
/**
 * What genswarms-launch runs besides the client: `/bin/sh` (its interpreter), `env -i` (the clean re-exec) and
 * `rm` (the env file). With host_nix they come from the closure, never the host; socat only for `isolated`.
 */
export const NIX_LAUNCHER_TOOLS: readonly string[] = ['sh', 'env', 'rm'];

/**
 * host_nix binds (docs/runners.md "host_nix"): each path of `nix-store --query --requisites <nix_package>` ro at
 * itself, and (bwrap) the launcher's tools ro at `/bin/<tool>` from the first closure path holding `bin/<tool>`. Nothing of
 * the host's /usr, /bin, /lib* or /etc. Refuses at plan: `nix_path_invalid` (nix_package or a requisite missing,
 * outside /nix/store, a symlink leaving it, unknown to nix-store; a launcher tool missing from the closure; a host
 * agent_binary_path); `validation_failed` (no nix-store on the server's PATH; the host-node genswarms-agent client).
 */
export function planNixMounts(spec: AgentLaunchSpec, ctx: RunnerContext, withLauncherTools: boolean): MountSpec[] {
  const nixPackage = spec.config.nix_package;
  assertStoreEntry(nixPackage, 'nix_package', spec.agent);
  const closure = queryNixClosure(ctx.binaries.nixStore, nixPackage, spec.agent);
  const mounts: MountSpec[] = closure.map((p) => {
    assertStoreEntry(p, 'a requisite', spec.agent);
    return { host: assertSafeHostPath(p, 'nix_closure', spec, ctx), sandbox: p, access: 'ro', origin: { written: p, kind: 'nix_closure' } };
  });
  if (!withLauncherTools) return mounts; // docker: the image provides the launcher's shell and node
  assertClientFromClosure(spec);
  const tools = spec.network === 'isolated' ? [...NIX_LAUNCHER_TOOLS, 'socat'] : NIX_LAUNCHER_TOOLS;
  for (const tool of tools) {
    const written = findClosureTool(closure, tool);
    if (written === undefined) throw nixRefusal(`the closure of nix_package has no bin/${tool} (the launcher needs it)`, spec.agent, tool);
    mounts.push({ host: realpathSync(written), sandbox: `/bin/${tool}`, access: 'ro', origin: { written, kind: 'nix_closure' } });
  }
  return mounts;
}

/**
 * `nix-store --query --requisites <pkg>` (argv only, empty env): every line must be a /nix/store entry and the
 * closure non-empty. Never all of /nix/store.
 */
export function queryNixClosure(nixStore: string | undefined, nixPackage: string, agent: string): readonly string[] {
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
  if (result.status !== 0) throw nixRefusal('nix-store does not know nix_package (not a valid store path)', agent, nixPackage);
  const paths = result.stdout.split('\n').filter((line) => line.length > 0);
  if (paths.length === 0) throw nixRefusal('the nix_package closure is empty', agent, nixPackage);
  return paths;
}

/** Exists, lies in /nix/store, and its real path stays there (a symlink out of the store is refused). */
function assertStoreEntry(p: string | undefined, what: string, agent: string): asserts p is string {
  if (p === undefined || !isStorePath(p)) throw nixRefusal(`${what} must be a path inside /nix/store/`, agent, p);
  let real: string;
  try {
    lstatSync(p);
    real = realpathSync(p);
  } catch {
    throw nixRefusal(`${what} does not exist`, agent, p); // expected: missing or unreadable, refused with its own code
  }
  if (!isStorePath(real)) throw nixRefusal(`${what} resolves outside /nix/store/`, agent, p);
}

/** bwrap has no host system here: the client must come from the closure, not the host's node or a host binary. */
function assertClientFromClosure(spec: AgentLaunchSpec): void {
  const binary = spec.config.agent_binary_path;
  if (binary !== undefined && !isStorePath(binary)) {
    throw nixRefusal('with host_nix, agent_binary_path must lie inside /nix/store/ (no host binaries)', spec.agent, binary);
  }
  if (binary === undefined && spec.client === 'genswarms-agent') {
    throw new RunnerError(
      'validation_failed',
      "the genswarms-agent client needs the host's node: with host_nix, run a client of the closure",
      {
        agent: spec.agent,
      },
    );
  }
}

function findClosureTool(closure: readonly string[], tool: string): string | undefined {
  for (const storePath of closure) {
    const candidate = `${storePath}/bin/${tool}`;
    try {
      if (isStorePath(realpathSync(candidate)) && statSync(candidate).isFile()) return candidate;
    } catch {
      continue; // expected: this store path has no such tool
    }
  }
  return undefined;
}

function nixRefusal(message: string, agent: string, written: string | undefined): RunnerError {
  return new RunnerError('nix_path_invalid', message, { agent, details: written === undefined ? {} : { path: written } });
}

function isStorePath(p: string): boolean {
  return p.startsWith(NIX_STORE_PREFIX) && p.length > NIX_STORE_PREFIX.length && path.posix.normalize(p) === p && !/[\0\n]/.test(p);
}
