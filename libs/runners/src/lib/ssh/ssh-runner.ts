/**
 * `ssh`: the client runs on another machine, reached with ssh2 (no ssh binary, no shell string). Host keys are
 * verified against known_hosts before anything is sent; argv and env travel as 0400/0600 files over SFTP and are
 * replayed by the constant `genswarms-ssh-run` with xargs, as locally. docs/runners.md "ssh", docs/security.md.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { SFTPWrapper } from 'ssh2';
import type { AgentLaunchSpec, LaunchPlan, Runner, RunnerContext, RunnerHandle, SessionDescription, SessionRemote } from '../port';
import { RunnerError } from '../errors/runner-error';
import { assertNetworkSupported } from '../network/network-policy';
import { assertNoLimitsRequested } from '../cgroup/agent-limits';
import { assertSeccompSupported } from '../seccomp/seccomp-plan';
import { buildClientEnv } from '../env/client-env';
import { assertEnvEntries, stateDirFor } from '../state/state-dir';
import { assertArgv } from '../argv/validate-argv';
import { computeManifestBudget } from '../manifest/argv-manifest';
import { bypassNotices, describePlan, newSessionId } from '../plan/describe';
import { hasBypassFlag, isTuiClient } from '../client/clients';
import { loadKnownHosts } from './host-key-verify';
import { readPrivateKey } from './ssh-key';
import { parseSshOptions, REMOTE_PATH_RE, type SshOptions } from './ssh-options';
import { SshPool } from './ssh-pool';
import type { SshConnection, SshEndpoint } from './ssh-connection';
import { remoteAgentId, remoteLayout, runCommand, ctlCommand, watchCommand, type RemoteLayout } from './remote-layout';
import { sftpEnsurePrivateDir, sftpProbeUid, sftpRealpath } from './sftp-io';
import { SshSession } from './ssh-handle';
import { assertRemotePrerequisites, removeLaunchFiles, uploadScripts, writeLaunchFiles } from './remote-setup';
import type { RemoteWorkspace } from './remote-workspace';
import { readRemoteLeader, type RemoteLeader } from './remote-leader';
import { readRemoteRecord, writeRemoteRecord } from './remote-record';

/** The notice recorded at every start that connected with `silently_accept_hosts: true` (docs/security.md). */
export const SSH_UNVERIFIED_NOTICE = 'ssh_host_key_unverified';
/** Where the remote env/workspace paths go in a plan, before start learns the remote home. */
const PLAN_REMOTE_HOME = '/genswarms-ssh-remote-home';

export interface SshRunnerOptions {
  /** Reconnect attempts and base delay of the shared pool (tests shorten them). */
  readonly reconnectAttempts?: number;
  readonly reconnectBaseMs?: number;
  /**
   * Start the remote receipt watcher with the remote node (default true). false = poll every 250 ms, as before the
   * push existed (the latency bench's baseline).
   */
  readonly receiptPush?: boolean;
  /** The fallback poll while the watcher is live (default SSH_RECEIPT_PUSH_POLL_MS; specs lengthen it to prove the push). */
  readonly receiptPushPollMs?: number;
}

/** Plan + start state the handle needs; the key bytes live only inside the pool's endpoint. */
interface SshPlanExtra {
  readonly opts: SshOptions;
}

export function createSshRunner(options: SshRunnerOptions = {}): Runner {
  const pool = new SshPool({
    ...(options.reconnectAttempts === undefined ? {} : { attempts: options.reconnectAttempts }),
    ...(options.reconnectBaseMs === undefined ? {} : { baseDelayMs: options.reconnectBaseMs }),
  });
  const extras = new WeakMap<LaunchPlan, SshPlanExtra>();
  return {
    kind: 'ssh',
    plan: (spec, ctx) => {
      const { plan, opts } = planSsh(spec, ctx);
      extras.set(plan, { opts });
      return plan;
    },
    preflight: (plan, ctx) => preflightSsh(plan, ctx, extras.get(plan)?.opts ?? planSsh(plan.spec, ctx).opts, pool),
    start: async (plan, ctx) => {
      const opts = extras.get(plan)?.opts ?? planSsh(plan.spec, ctx).opts;
      return startSsh(plan, ctx, opts, pool, pushOf(options));
    },
    reattach: (description, ctx) => reattachSsh(description, ctx, pool, pushOf(options)),
    close: () => pool.close(),
  };
}

/** The receipt push settings of the runner's sessions: off, or on with its fallback poll. */
type PushSettings = { readonly on: false } | { readonly on: true; readonly pollMs?: number };

function pushOf(o: SshRunnerOptions): PushSettings {
  if (o.receiptPush === false) return { on: false };
  return o.receiptPushPollMs === undefined ? { on: true } : { on: true, pollMs: o.receiptPushPollMs };
}

function clientArgvOf(spec: AgentLaunchSpec, opts: SshOptions): readonly string[] {
  if (isTuiClient(spec.client)) {
    throw new RunnerError('validation_failed', 'the ssh backend runs headless clients only (genswarms-agent or a command)', {
      agent: spec.agent,
    });
  }
  const argv = typeof spec.client === 'string' ? [opts.remoteNode, opts.remoteAgentEntry] : [...spec.client.command];
  assertArgv(argv, spec.agent);
  if (!path.posix.isAbsolute(argv[0] ?? '')) {
    throw new RunnerError(
      'validation_failed',
      'an ssh command client needs an absolute executable path (the remote PATH is not searched)',
      {
        agent: spec.agent,
      },
    );
  }
  if (hasBypassFlag(argv) && !spec.unsafeBypass)
    throw new RunnerError('bypass_requires_opt_in', 'a bypass flag needs unsafe_bypass: true', { agent: spec.agent });
  return argv;
}

function remoteEnv(spec: AgentLaunchSpec, ctx: RunnerContext, layout: RemoteLayout): { env: Record<string, string>; notices: string[] } {
  const built = buildClientEnv({ ...spec, skills: [] }, ctx, {
    sandbox: false,
    workspace: layout.workspace,
    home: layout.home,
    tui: false,
  });
  assertEnvEntries(built.env);
  return built;
}

function planSsh(spec: AgentLaunchSpec, ctx: RunnerContext): { plan: LaunchPlan; opts: SshOptions } {
  if (spec.backend !== 'ssh') throw new RunnerError('validation_failed', 'not an ssh agent', { agent: spec.agent });
  assertNetworkSupported(spec); // open only: nothing on the remote host could enforce none/isolated
  // nor limits or a seccomp filter: refused at plan, never a start without them (docs/runners.md "Limits", "Seccomp")
  assertNoLimitsRequested(spec, 'ssh');
  assertSeccompSupported(spec, 'ssh', false);
  if (spec.skills.length > 0) throw new RunnerError('validation_failed', 'skills are not copied to ssh agents', { agent: spec.agent });
  const opts = parseSshOptions(spec, ctx, spec.host);
  const clientArgv = clientArgvOf(spec, opts);
  const layout = remoteLayout(PLAN_REMOTE_HOME, remoteAgentId(ctx.home, spec.swarm, spec.agent));
  const { env, notices } = remoteEnv(spec, ctx, layout);
  computeManifestBudget(layout.launcher, [layout.envFile, ...clientArgv]); // launch_too_large at plan
  const plan: LaunchPlan = {
    spec,
    sessionId: newSessionId(),
    stateDir: stateDirFor(ctx.home, spec.swarm, spec.agent),
    clientArgv,
    env,
    mounts: [],
    notices: [...notices, ...bypassNotices(clientArgv), ...(opts.silentlyAcceptHosts ? [SSH_UNVERIFIED_NOTICE] : [])],
  };
  return { plan, opts };
}

async function endpointOf(
  opts: Pick<SshOptions, 'user' | 'host' | 'port' | 'keyPath' | 'knownHosts' | 'silentlyAcceptHosts'>,
  ctx: RunnerContext,
): Promise<SshEndpoint> {
  return {
    user: opts.user,
    host: opts.host,
    port: opts.port,
    privateKey: await readPrivateKey(opts.keyPath, ctx.serverUid),
    knownHosts: await loadKnownHosts(opts.knownHosts),
    silentlyAcceptHosts: opts.silentlyAcceptHosts,
  };
}

/**
 * Plan-time check over the connection: the remote prerequisites. A host that cannot be reached or verified is
 * not refused here — that is a start-time refusal with its exact code (docs/configuration.md), never a validate one.
 */
async function preflightSsh(plan: LaunchPlan, ctx: RunnerContext, opts: SshOptions, pool: SshPool): Promise<void> {
  let conn: SshConnection;
  try {
    conn = await pool.get(await endpointOf(opts, ctx));
  } catch (e) {
    if (e instanceof RunnerError && e.code.startsWith('ssh_')) return; // expected: start refuses with this code
    throw e;
  }
  await assertRemotePrerequisites(await conn.sftp(), plan);
}

async function prepareRemote(
  conn: SshConnection,
  plan: LaunchPlan,
  ctx: RunnerContext,
): Promise<{ s: SFTPWrapper; layout: RemoteLayout; uid: number; env: Record<string, string> }> {
  const s = await conn.sftp();
  const home = await sftpRealpath(s, '.');
  const layout = remoteLayout(home, remoteAgentId(ctx.home, plan.spec.swarm, plan.spec.agent));
  const uid = await sftpProbeUid(s, home);
  await assertRemotePrerequisites(s, plan);
  await uploadScripts(s, layout, uid);
  for (const dir of [layout.dir, layout.home, layout.workspace]) await sftpEnsurePrivateDir(s, dir, uid);
  return { s, layout, uid, env: remoteEnv(plan.spec, ctx, layout).env };
}

function workspaceOf(pool: SshPool, ep: SshEndpoint, l: RemoteLayout, local: string, uid: number): RemoteWorkspace {
  return { sftp: () => pool.get(ep).then((c) => c.sftp()), remote: l.workspace, local, uid };
}

/** `<home>/ssh-clients/<agent id>.json`: the host's record of the client it last started for an agent (remote-record.ts). */
function recordDir(ctx: RunnerContext): string {
  return path.join(ctx.home, 'ssh-clients');
}

/**
 * A client this server started earlier and no longer owns (a failed re-attach) must not share the workspace with the
 * new one: it is stopped by the host's record of it. Nothing on the remote host (which the agent may have rewritten)
 * names it; a record this server cannot read refuses the start (fail-closed: an old client may still run).
 */
async function stopRecordedClient(conn: SshConnection, ctx: RunnerContext, opts: SshOptions, layout: RemoteLayout): Promise<void> {
  const load = readRemoteRecord(recordDir(ctx), path.posix.basename(layout.dir), ctx.serverUid);
  if (load.kind === 'missing') return;
  if (load.kind === 'invalid') {
    throw new RunnerError('state_dir_unsafe', `the record of this agent's previous remote client is unusable (${load.reason})`, {
      details: { dir: recordDir(ctx) },
    });
  }
  const r = load.record;
  if (r.user === opts.user && r.host === opts.host && r.port === opts.port && r.dir === layout.dir) await runCtl(conn, layout, 'stop', r);
}

async function startSsh(plan: LaunchPlan, ctx: RunnerContext, opts: SshOptions, pool: SshPool, push: PushSettings): Promise<RunnerHandle> {
  const ep = await endpointOf(opts, ctx);
  const conn = await pool.get(ep);
  const { s, layout, uid, env } = await prepareRemote(conn, plan, ctx);
  await stopRecordedClient(conn, ctx, opts, layout);
  await writeLaunchFiles(s, layout, uid, plan.clientArgv, env);
  await fsp.mkdir(plan.spec.workspace, { recursive: true, mode: 0o700 });
  const channel = await conn.exec(runCommand(layout));
  let leader: RemoteLeader | undefined;
  try {
    leader = await readRemoteLeader(channel);
    writeRemoteRecord(recordDir(ctx), path.posix.basename(layout.dir), ctx.serverUid, { ...pick(opts), dir: layout.dir, ...leader });
  } catch (e) {
    channel.close();
    await abandonStart(conn, s, layout, leader);
    if (e instanceof RunnerError && e.code !== 'start_failed') throw e;
    throw new RunnerError('start_failed', 'the remote client did not start', { agent: plan.spec.agent, cause: e });
  }
  const remote: SessionRemote = { ...pick(opts), dir: layout.dir, pid: leader.pid, startTime: leader.startTime, node: opts.remoteNode };
  const description: SessionDescription = {
    ...describePlan(plan, { pid: leader.pid }),
    notices: conn.hostKey.verified
      ? plan.notices.filter((n) => n !== SSH_UNVERIFIED_NOTICE)
      : [...new Set([...plan.notices, SSH_UNVERIFIED_NOTICE])],
    remote,
  };
  const session = new SshSession({
    description,
    layout,
    workspace: workspaceOf(pool, ep, layout, plan.spec.workspace, uid),
    connect: () => pool.get(ep),
    ...(push.on ? { watchCommand: watchCommand(layout, opts.remoteNode), pushPollMs: push.pollMs } : {}),
  });
  session.follow(channel, false);
  void session.ensureWatcher(); // started with the client, so it is looking by the first turn (never throws)
  return session;
}

/** A start that failed after the run command went out: a client that did start (its leader known) is stopped. */
async function abandonStart(conn: SshConnection, s: SFTPWrapper, layout: RemoteLayout, leader: RemoteLeader | undefined): Promise<void> {
  try {
    if (leader !== undefined) await runCtl(conn, layout, 'stop', leader);
    await removeLaunchFiles(s, layout);
  } catch {
    // best-effort: the start fails either way; a client left running is stopped by its record at the next start
  }
}

function pick(o: SshOptions): Omit<SessionRemote, 'dir' | 'pid' | 'startTime'> {
  return {
    user: o.user,
    host: o.host,
    port: o.port,
    keyPath: o.keyPath,
    knownHosts: [...o.knownHosts],
    silentlyAcceptHosts: o.silentlyAcceptHosts,
  };
}

/** Runs one constant `genswarms-ssh-ctl` verb about `leader` and returns its stdout (bounded: one word). */
async function runCtl(conn: SshConnection, layout: RemoteLayout, verb: 'status' | 'stop', leader: RemoteLeader): Promise<string> {
  const ch = await conn.exec(ctlCommand(layout, verb, leader));
  let out = '';
  ch.on('data', (b: Buffer) => (out = (out + b.toString('utf8')).slice(0, 64)));
  ch.stderr.resume();
  await new Promise((res) => ch.on('close', res));
  return out;
}

/**
 * After a server restart: adopt the remote agent only if the recorded group leader still runs with the recorded
 * start time (asked of the ctl this server uploads first: an older one knew no recorded process).
 */
async function reattachSsh(
  description: SessionDescription,
  ctx: RunnerContext,
  pool: SshPool,
  push: PushSettings,
): Promise<RunnerHandle | null> {
  const r = description.remote;
  if (description.backend !== 'ssh' || r === undefined) return null;
  const ep = await endpointOf(r, ctx);
  const conn = await pool.get(ep);
  const s = await conn.sftp();
  const home = await sftpRealpath(s, '.');
  const id = path.posix.basename(r.dir);
  const layout = remoteLayout(home, id);
  if (layout.dir !== r.dir) return null;
  const uid = await sftpProbeUid(s, home);
  await uploadScripts(s, layout, uid);
  if ((await runCtl(conn, layout, 'status', r)).trim() !== 'running') return null;
  writeRemoteRecord(recordDir(ctx), id, ctx.serverUid, r);
  const session = new SshSession({
    description,
    layout,
    workspace: workspaceOf(pool, ep, layout, description.workspace, uid),
    connect: () => pool.get(ep),
    ...(push.on && r.node !== undefined && REMOTE_PATH_RE.test(r.node)
      ? { watchCommand: watchCommand(layout, r.node), pushPollMs: push.pollMs }
      : {}),
  });
  session.follow(await conn.exec(ctlCommand(layout, 'wait', r)), true);
  void session.ensureWatcher();
  return session;
}
