/**
 * What one running agent costs the host, per runner (the figures of the runners' host-cost table): host tasks
 * (kernel.pid_max and RLIMIT_NPROC count threads), the server's descriptors and inotify watches, ptys, cgroups.
 * Each figure is the difference between the host before a swarm of N agents and once all of them are ready.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { agentConfig, type BenchBackend } from '../swarm/backends';
import { fdUsageOf, type BenchServer } from '../swarm/bench-server';
import { snapshotProcs } from '../swarm/leftovers';

/** The runners measured: the bench's, plus docker-backed ones. */
export type CostBackend = BenchBackend | 'docker' | 'tmux-docker';
export const COST_BACKENDS: readonly CostBackend[] = ['mock', 'local', 'bwrap', 'tmux', 'tmux-bwrap', 'docker', 'tmux-docker'];
const TEST_IMAGE = 'genswarms/test-agent:latest';
const SLEEP: readonly string[] = ['/bin/sh', '-c', 'exec /bin/sleep 2147483647'];
const READY_TIMEOUT_MS = 300_000;

export interface HostSample {
  /** Threads of the processes that are ours: the server's descendants, the tmux servers of its home, the containers. */
  readonly ourTasks: number;
  /** Every task of the host (`/proc/loadavg`): what kernel.pid_max bounds (noisy on a shared box). */
  readonly hostTasks: number;
  readonly serverFds: number;
  readonly inotifyWatches: number;
  readonly ptys: number;
  /** cgroups of the freezer and pids v1 hierarchies, or of the v2 hierarchy (`/proc/cgroups`). */
  readonly cgroups: number;
}

export interface CostRow {
  readonly backend: CostBackend;
  readonly n: number;
  /** Per agent: (ready − before) / n, one decimal. */
  readonly perAgent: HostSample;
  readonly error?: string;
}

function text(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // expected: a process exited while we looked
  }
}

function threadsOf(pid: number): number {
  const m = /^Threads:\s+(\d+)/m.exec(text(`/proc/${pid}/status`));
  return m === null ? 0 : Number(m[1]);
}

/** Container processes: those whose cgroup path names docker (their shims are counted too). */
function isContainerProcess(pid: number, cmdline: string): boolean {
  return cmdline.startsWith('/usr/bin/containerd-shim') || /\/docker[/-]/.test(text(`/proc/${pid}/cgroup`));
}

function ourTasks(server: BenchServer, withContainers: boolean): number {
  const procs = snapshotProcs();
  const children = new Map<number, number[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const roots = procs.filter(
    (p) => p.pid === server.pid || (p.cmdline.includes(server.home) && basename(p.cmdline.split('\0')[0] ?? '') === 'tmux'),
  );
  const ours = new Set<number>();
  const queue = roots.map((p) => p.pid);
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    if (ours.has(pid)) continue;
    ours.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  if (withContainers) for (const p of procs) if (isContainerProcess(p.pid, p.cmdline)) ours.add(p.pid);
  let tasks = 0;
  for (const pid of ours) tasks += threadsOf(pid);
  return tasks;
}

function cgroupCount(): number {
  let n = 0;
  for (const line of text('/proc/cgroups').split('\n')) {
    const [name, hier, count] = line.split('\t');
    if (name === 'freezer' || name === 'pids' || (hier === '0' && name === 'cpu')) n += Number(count ?? 0);
  }
  return n;
}

export function sampleHost(server: BenchServer, withContainers: boolean): HostSample {
  const usage = fdUsageOf(server.pid);
  const loadavg = text('/proc/loadavg').split(' ')[3] ?? '0/0';
  return {
    ourTasks: ourTasks(server, withContainers),
    hostTasks: Number(loadavg.split('/')[1]),
    serverFds: usage.fds,
    inotifyWatches: usage.inotifyWatches,
    ptys: Number(text('/proc/sys/kernel/pty/nr').trim()),
    cgroups: cgroupCount(),
  };
}

/** The agent entry of a measured backend (the bench's, with an image for docker ones). */
function entryOf(backend: CostBackend, name: string): Record<string, unknown> {
  const client = { command: [...SLEEP] };
  if (backend === 'docker') return { name, backend: { type: 'docker', image: TEST_IMAGE }, network: 'none', client };
  if (backend === 'tmux-docker') return { name, backend: { type: 'tmux', runner: 'docker', image: TEST_IMAGE }, network: 'none', client };
  return { ...agentConfig(backend, name), ...(backend === 'mock' ? {} : { client }) };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitReady(server: BenchServer, swarm: string, n: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const res = await server.api<{ agents?: Array<{ state: string }> }>('GET', `/api/swarms/${swarm}/agents`);
    const agents = res.body.agents ?? [];
    if (agents.some((a) => a.state === 'failed' || a.state === 'needs_attention')) throw new Error('an agent failed');
    if (agents.length === n && agents.every((a) => a.state === 'idle')) return;
    if (Date.now() > deadline) throw new Error('not ready in time');
    await sleep(250);
  }
}

function perAgent(before: HostSample, after: HostSample, n: number): HostSample {
  const d = (k: keyof HostSample): number => Math.round(((after[k] - before[k]) / n) * 10) / 10;
  return {
    ourTasks: d('ourTasks'),
    hostTasks: d('hostTasks'),
    serverFds: d('serverFds'),
    inotifyWatches: d('inotifyWatches'),
    ptys: d('ptys'),
    cgroups: d('cgroups'),
  };
}

/** One backend at one N: before, start a counted swarm, ready, after, DELETE ?purge=true. */
export async function measureCost(server: BenchServer, backend: CostBackend, n: number): Promise<CostRow> {
  const docker = backend === 'docker' || backend === 'tmux-docker';
  const swarm = `cost-${backend}-${n}-${Date.now().toString(36)}`;
  await sleep(1000); // the previous run's exits settle
  const before = sampleHost(server, docker);
  const config = { name: swarm, agents: [{ ...entryOf(backend, 'a'), count: n }], options: { max_agents: n } };
  const posted = await server.api('POST', '/api/swarms', { config });
  try {
    if (posted.status !== 201) throw new Error(`POST ${posted.status}: ${JSON.stringify(posted.body).slice(0, 300)}`);
    await waitReady(server, swarm, n);
    await sleep(1000); // a ready agent's last watches and the client's exec settle
    return { backend, n, perAgent: perAgent(before, sampleHost(server, docker), n) };
  } catch (err) {
    const zero = perAgent(before, before, n);
    return { backend, n, perAgent: zero, error: err instanceof Error ? err.message : String(err) };
  } finally {
    await server.api('DELETE', `/api/swarms/${swarm}?purge=true`);
  }
}

/** Whether the fd of `pid` named `fd` is an inotify instance (exported for the per-user instance count). */
export function isInotifyFd(pid: number, fd: string): boolean {
  try {
    return readlinkSync(join(`/proc/${pid}/fd`, fd)) === 'anon_inode:inotify';
  } catch {
    return false; // expected: the descriptor closed while we looked
  }
}

/** inotify instances held by `pid`. */
export function inotifyInstancesOf(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).filter((fd) => isInotifyFd(pid, fd)).length;
}
