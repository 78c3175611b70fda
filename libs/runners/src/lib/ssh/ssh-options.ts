/** `backend.opts` of an ssh agent (docs/runners.md "ssh"), checked at plan: the same refusal at validate and start. */
import * as path from 'node:path';
import { parseSshTarget } from '@genswarms/ir-gate';
import type { AgentLaunchSpec, RunnerContext, SessionRemote } from '../port';
import { RunnerError } from '../errors/runner-error';

/** The endpoint half is what `SessionDescription.remote` keeps (paths, never key material); the rest is plan-only. */
export interface SshOptions extends Omit<SessionRemote, 'dir' | 'pid' | 'startTime'> {
  /** genswarms-agent on the remote host: node and the agent entry (absolute remote paths). */
  readonly remoteNode: string;
  readonly remoteAgentEntry: string;
}

const KEYS = new Set(['port', 'key_path', 'known_hosts', 'silently_accept_hosts', 'remote_node', 'remote_agent_entry']);
/** Remote paths we put on a command line or in a manifest: a fixed character set, absolute, normalised. */
export const REMOTE_PATH_RE = /^\/[A-Za-z0-9._+/-]{0,1023}$/;

function absolute(spec: AgentLaunchSpec, key: string, value: unknown, remote: boolean): string {
  const ok = typeof value === 'string' && path.posix.isAbsolute(value) && path.posix.normalize(value) === value;
  if (!ok || (remote && !REMOTE_PATH_RE.test(value))) {
    throw new RunnerError(
      'validation_failed',
      `backend.opts.${key} must be an absolute, normalised path${remote ? ' of [A-Za-z0-9._+/-]' : ''}`,
      {
        agent: spec.agent,
        details: { field: `backend.opts.${key}` },
      },
    );
  }
  return value;
}

/**
 * Parses and checks the ssh options. `silently_accept_hosts` must be a JSON boolean (the string "true" is refused);
 * unknown keys are refused; `key_path` is required. The target comes from `backend.host` (`user@host`, docs/configuration.md).
 */
export function parseSshOptions(spec: AgentLaunchSpec, ctx: RunnerContext, host: string | undefined): SshOptions {
  const bad = (field: string, message: string) =>
    new RunnerError('validation_failed', `${field} ${message}`, { agent: spec.agent, details: { field } });
  const target = parseSshTarget(host);
  if (target.kind === 'invalid') throw bad('backend.host', target.reason);
  const opts = spec.backendOpts;
  for (const key of Object.keys(opts)) if (!KEYS.has(key)) throw bad(`backend.opts.${key}`, 'is not an ssh option');
  const port = opts['port'] ?? 22;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    throw bad('backend.opts.port', 'must be an integer 1..65535');
  const silently = opts['silently_accept_hosts'] ?? false;
  if (typeof silently !== 'boolean') throw bad('backend.opts.silently_accept_hosts', 'must be a JSON boolean (true/false), not a string');
  if (opts['key_path'] === undefined) throw bad('backend.opts.key_path', 'is required (the private key file, 0600)');
  const keyPath = absolute(spec, 'key_path', opts['key_path'], false);
  const knownHosts =
    opts['known_hosts'] === undefined
      ? [path.join(ctx.home, 'known_hosts'), ...(ctx.userHome === undefined ? [] : [path.join(ctx.userHome, '.ssh', 'known_hosts')])]
      : [absolute(spec, 'known_hosts', opts['known_hosts'], false)];
  return {
    user: target.value.user,
    host: target.value.host,
    port,
    keyPath,
    knownHosts,
    silentlyAcceptHosts: silently,
    remoteNode: absolute(spec, 'remote_node', opts['remote_node'] ?? ctx.binaries.node, true),
    remoteAgentEntry: absolute(spec, 'remote_agent_entry', opts['remote_agent_entry'] ?? ctx.agentEntry, true),
  };
}
