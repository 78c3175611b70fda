import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, MountSpec, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { isSameOrInside, overlaps } from '../sandbox/path-rules';
import { grantAgentTraversal } from '../identity/agent-traversal';
import { resolveInstalledClient, type InstalledClient } from './installed-client';
import { isCodingClient } from './client-mode';

/** Where a sandbox sees an installed client: its whole npm prefix, read-only (Codex needs more than its binary). */
export const SANDBOX_CLIENTS_DIR = '/run/genswarms/clients';

/**
 * The installed codex/claude/opencode (`genswarms clients install`, pinned version) a runner uses before
 * anything on the PATH (docs/clients.md "Installing"): undefined when the agent names `agent_binary_path`,
 * the context has no clients dir, or the client is not installed there (then the PATH is searched as
 * before). An install that is there but damaged, foreign-owned, writable by others or reached through a
 * link → `binary_missing` naming why: never a fall-back to another copy.
 */
export function installedClientFor(spec: AgentLaunchSpec, ctx: RunnerContext): InstalledClient | undefined {
  const client = spec.client;
  if (!isCodingClient(client) || spec.config.agent_binary_path !== undefined || ctx.clientsDir === undefined) return undefined;
  const found = resolveInstalledClient(ctx.clientsDir, client);
  switch (found.kind) {
    case 'ok':
      assertInstallSource(found.client.prefix, ctx, spec);
      return found.client;
    case 'missing':
      return undefined;
    case 'invalid':
    case 'unsafe':
    case 'unsupported_platform':
      throw new RunnerError(
        'binary_missing',
        `the installed ${client} cannot be used (${found.kind}: ${found.reason}); reinstall it with genswarms clients install ${client}`,
        {
          agent: spec.agent,
          details: { binary: client, reason: found.kind },
        },
      );
  }
}

/** The client's executable as the sandbox sees it (below SANDBOX_CLIENTS_DIR/<name>). */
export function sandboxClientBinary(installed: InstalledClient): string {
  return path.posix.join(SANDBOX_CLIENTS_DIR, installed.name, path.relative(installed.prefix, installed.binary).split(path.sep).join('/'));
}

/** The generated read-only bind of the install prefix (no `origin`: not an operator path, see assertInstallSource). */
export function clientInstallMount(installed: InstalledClient): MountSpec {
  return { host: installed.prefix, sandbox: path.posix.join(SANDBOX_CLIENTS_DIR, installed.name), access: 'ro' };
}

/**
 * A root server's agent uid must reach the install: an install below GENSWARMS_HOME gets the search-only
 * treatment of the agents' own directories (home → clients → <name>: 0710, the agents' group); the prefix
 * itself stays the installer's 0755. An install outside home is the operator's to make searchable.
 */
export async function grantClientReach(ctx: RunnerContext, installPrefix: string | undefined): Promise<void> {
  if (installPrefix === undefined || !isSameOrInside(installPrefix, realpathSync(ctx.home))) return;
  await grantAgentTraversal(ctx, [installPrefix]);
}

/**
 * An install prefix is bound into sandboxes: it may not hold GENSWARMS_HOME, lie inside it anywhere but its
 * `clients/` directory (state, workspaces, sockets), or overlap a path of another agent or of the server.
 */
function assertInstallSource(prefix: string, ctx: RunnerContext, spec: AgentLaunchSpec): void {
  const agent = spec.agent;
  const home = realpathSync(ctx.home);
  const refuse = (why: string): RunnerError =>
    new RunnerError('unsafe_bind', `the client install ${prefix} ${why}`, { agent, details: { path: prefix } });
  if (isSameOrInside(home, prefix)) throw refuse('holds GENSWARMS_HOME');
  if (isSameOrInside(prefix, home) && !isSameOrInside(prefix, path.join(home, 'clients')))
    throw refuse('is inside GENSWARMS_HOME but not in its clients directory');
  for (const p of ctx.protectedPaths?.({ swarm: spec.swarm, agent }) ?? []) {
    if (path.isAbsolute(p) && overlaps(prefix, p)) throw refuse("overlaps another agent's or the server's directory");
  }
  for (const check of ctx.protectedChecks?.({ swarm: spec.swarm, agent }) ?? [])
    if (check.overlaps(path.resolve(prefix))) throw refuse("overlaps another agent's or the server's directory");
}
