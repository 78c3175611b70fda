/**
 * The swarm backend on the two-node swarm (tools/docker/two-node-swarm.sh up): (1) receipt → returned-receipt latency
 * for an agent on the REMOTE node (node2), against a raw baseline of one archive HEAD on that node's engine; (2) the
 * launch time of N agents (default 100) spread over both nodes by constraint, against N bare services (same image, no
 * secret, config or volume) created straight through the Engine API in the same run. Prints figures; asserts nothing.
 * Usage: npm run bench:swarm-launch -- [agents=100] [turns=50] [--mode both|push|poll]
 *   --mode: the receipt latency with the receipt watcher's push, with the 100 ms poll alone, or both (poll first);
 *   agents 0 skips the launch measure.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newTurnId, prepareTurnDir, writeFileUnder } from '@genswarms/receipts';
import { buildRunnerContext, createSwarmRunner, type AgentLaunchSpec, type RunnerContext, type RunnerHandle } from '@genswarms/runners';
import { request } from 'node:http';

const IMAGE = 'genswarms/test-agent:latest';
const NODES_FILE = process.env['GENSWARMS_SWARM_NODES'] ?? '/run/genswarms-two-node/nodes.json';
const NODE2_SOCKET = '/var/run/gs-node2.sock';
const MANAGER_SOCKET = '/var/run/docker.sock';

/**
 * Answers each inbox turn 250 ms after it sees it (a real turn takes far longer; answering at once would race the
 * host's first look, made right after the inbox upload, and measure no wait at all); reply.md holds the client's wall
 * clock (ms) taken just before done.json.
 */
const CLIENT = `
const fs = require('fs'), path = require('path'), ws = '/workspace', seen = new Set();
setInterval(() => {
  let names = [];
  try { names = fs.readdirSync(path.join(ws, '.inbox')).filter((n) => n.endsWith('.json')); } catch { return; }
  for (const n of names) {
    if (seen.has(n)) continue;
    seen.add(n);
    const turn = JSON.parse(fs.readFileSync(path.join(ws, '.inbox', n), 'utf8')).turn;
    const d = path.join(ws, '.genswarms', 'turns', turn);
    setTimeout(() => {
      fs.writeFileSync(path.join(d, '.done.tmp'), JSON.stringify({ v: 1, turn, status: 'ok' }));
      fs.writeFileSync(path.join(d, 'reply.md'), String(Date.now()));
      fs.renameSync(path.join(d, '.done.tmp'), path.join(d, 'done.json'));
    }, 250);
  }
}, 10);`;

/** One Engine API call over a unix socket (node:http; dockerode is confined to libs/runners): status and JSON body. */
function engine(socketPath: string, method: string, urlPath: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(
      {
        socketPath,
        method,
        path: urlPath,
        headers: data === undefined ? {} : { 'content-type': 'application/json', 'content-length': data.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, json: text === '' ? null : (JSON.parse(text) as unknown) });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** One GET whose body is read and dropped (an archive: a tar stream, not JSON). */
function engineDrain(socketPath: string, urlPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method: 'GET', path: urlPath }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
    req.end();
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function summary(values: readonly number[]): string {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(1)}  p90 ${percentile(s, 90).toFixed(1)}  p99 ${percentile(s, 99).toFixed(1)}  max ${(s[s.length - 1] ?? NaN).toFixed(1)}`;
}

function specFor(root: string, agent: string, node: 'node1' | 'node2'): AgentLaunchSpec {
  const workspace = path.join(root, 'ws', agent);
  mkdirSync(workspace, { recursive: true, mode: 0o700 });
  return {
    swarm: 'bench',
    agent,
    backend: 'swarm',
    image: IMAGE,
    client: { command: ['/usr/bin/node', '-e', CLIENT] },
    network: 'open',
    workspace,
    skills: [],
    unsafeBypass: false,
    topologyTargets: [],
    config: {},
    backendOpts: { constraints: [`node.labels.genswarms.node==${node}`] },
  };
}

type Mode = 'push' | 'poll';

async function latency(root: string, ctx: RunnerContext, turns: number, mode: Mode): Promise<void> {
  const runner = createSwarmRunner({ nodesFile: NODES_FILE, receiptPush: mode === 'push' });
  const spec = specFor(root, `lat-${mode}`, 'node2');
  const handle = await runner.start(runner.plan(spec, ctx), ctx);
  try {
    const id = handle.describe().containerId ?? '';
    const raw: number[] = [];
    const rawGet: number[] = [];
    for (let i = 0; i < turns; i += 1) {
      const t0 = performance.now();
      await engine(NODE2_SOCKET, 'HEAD', `/containers/${id}/archive?path=%2Fworkspace`);
      raw.push(performance.now() - t0);
      const t1 = performance.now();
      await engineDrain(NODE2_SOCKET, `/containers/${id}/archive?path=%2Fetc%2Fhostname`);
      rawGet.push(performance.now() - t1);
    }
    const lat: number[] = [];
    // turn 0 is a warm-up, not counted: the client and (push mode) the watcher in the task have just started
    for (let i = 0; i <= turns; i += 1) {
      const id = newTurnId();
      await prepareTurnDir(spec.workspace, id);
      await writeFileUnder(
        spec.workspace,
        ['.inbox'],
        `${String(i).padStart(4, '0')}_bench.json`,
        JSON.stringify({ turn: id, content: 'x' }),
      );
      await handle.deliver({ turnId: id, seq: i, from: 'bench', content: 'x', clientTurnsDir: '' });
      const r = await handle.watchReceipt?.(id, { signal: new AbortController().signal });
      const now = Date.now();
      if (r?.kind !== 'ok' || r.reply === null) throw new Error(`turn ${i}: ${JSON.stringify(r)}`);
      if (i > 0) lat.push(now - Number(r.reply.trim()));
    }
    const p50 = (v: number[]): number =>
      percentile(
        [...v].sort((a, b) => a - b),
        50,
      );
    const how = mode === 'push' ? 'pushed (watcher in the task)' : 'polled (100 ms, no watcher)';
    process.stdout.write(`remote node (node2) receipt ${how}, written → verified receipt returned, ${turns} turns, ms: ${summary(lat)}\n`);
    process.stdout.write(
      `  raw baseline, one archive HEAD on node2's engine, ms: ${summary(raw)}  (p50 ratio ${(p50(lat) / p50(raw)).toFixed(1)}x)\n`,
    );
    process.stdout.write(
      `  raw baseline, one archive GET of a small file on node2's engine (the floor of a verified read), ms: ${summary(rawGet)}\n`,
    );
  } finally {
    await handle.stop();
  }
}

async function waitAllRunning(ids: readonly string[]): Promise<void> {
  const pending = new Set(ids);
  while (pending.size > 0) {
    const { json } = await engine(MANAGER_SOCKET, 'GET', '/tasks');
    for (const t of json as { ServiceID: string; Status: { State: string; Err?: string } }[]) {
      if (t.Status.State === 'running') pending.delete(t.ServiceID);
      if (pending.has(t.ServiceID) && ['failed', 'rejected'].includes(t.Status.State))
        throw new Error(`raw task ${t.Status.State}: ${t.Status.Err ?? ''}`);
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 500));
  }
}

async function rawLaunch(n: number): Promise<number> {
  const t0 = performance.now();
  const ids = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const { status, json } = await engine(MANAGER_SOCKET, 'POST', '/services/create', {
        Name: `gs-bench-raw-${i}`,
        Labels: { 'genswarms.swarm': 'bench-raw' },
        TaskTemplate: {
          ContainerSpec: { Image: IMAGE, Command: ['/bin/sleep', '3600'], Labels: { 'genswarms.swarm': 'bench-raw' } },
          RestartPolicy: { Condition: 'none' },
          Placement: { Constraints: [`node.labels.genswarms.node==node${(i % 2) + 1}`] },
          Networks: [{ Target: 'gs-open' }], // the overlay `open` agents use (created by the latency phase's agent)
        },
        Mode: { Replicated: { Replicas: 1 } },
        EndpointSpec: { Mode: 'dnsrr' },
      });
      if (status !== 201) throw new Error(`service create: ${status} ${JSON.stringify(json)}`);
      return (json as { ID: string }).ID;
    }),
  );
  await waitAllRunning(ids);
  const ms = performance.now() - t0;
  await Promise.all(ids.map((id) => engine(MANAGER_SOCKET, 'DELETE', `/services/${id}`)));
  // leave the nodes quiet: wait until both engines have removed the bare containers
  const filters = encodeURIComponent(JSON.stringify({ label: ['genswarms.swarm=bench-raw'] }));
  for (const socket of [MANAGER_SOCKET, NODE2_SOCKET]) {
    while (((await engine(socket, 'GET', `/containers/json?all=1&filters=${filters}`)).json as unknown[]).length > 0) {
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return ms;
}

async function runnerLaunch(root: string, ctx: RunnerContext, n: number): Promise<number> {
  const runner = createSwarmRunner({ nodesFile: NODES_FILE, taskStartTimeoutMs: 1_800_000 });
  const t0 = performance.now();
  const handles: RunnerHandle[] = await Promise.all(
    Array.from({ length: n }, (_, i) => {
      const spec = specFor(root, `a${i}`, i % 2 === 0 ? 'node1' : 'node2');
      return runner.start(runner.plan(spec, ctx), ctx);
    }),
  );
  const ms = performance.now() - t0;
  process.stdout.write(`launch of ${n} agents over two nodes (half per node), until every task runs: ${(ms / 1000).toFixed(1)} s\n`);
  const stop0 = performance.now();
  for (let i = 0; i < handles.length; i += 10) await Promise.all(handles.slice(i, i + 10).map((h) => h.stop()));
  process.stdout.write(
    `  stop of the ${n} agents (10 at a time, every object removed): ${((performance.now() - stop0) / 1000).toFixed(1)} s\n`,
  );
  return ms;
}

/** `[agents] [turns] [--mode both|push|poll]`. */
export function parseSwarmBenchArgs(argv: readonly string[]): { agents: number; turns: number; modes: Mode[] } {
  const nums: number[] = [];
  let modes: Mode[] = ['poll', 'push'];
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i] ?? '';
    if (a === '--mode') {
      const m = argv[(i += 1)];
      if (m === 'both') modes = ['poll', 'push'];
      else if (m === 'push' || m === 'poll') modes = [m];
      else throw new Error('--mode must be both, push or poll');
    } else if (/^[0-9]+$/.test(a)) nums.push(Number(a));
    else throw new Error(`unknown argument ${a}`);
  }
  return { agents: nums[0] ?? 100, turns: nums[1] ?? 50, modes };
}

export async function runSwarmLaunchBench(argv: readonly string[]): Promise<number> {
  const { agents, turns, modes } = parseSwarmBenchArgs(argv);
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gs-swarm-bench-')));
  const home = path.join(root, 'home');
  mkdirSync(home, { mode: 0o700 });
  const ctx = buildRunnerContext({
    path: '/usr/local/bin:/usr/bin:/bin',
    home,
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
    agentEntry: '/nonexistent',
    node: process.execPath,
    llm: { allowedHosts: [] },
  });
  try {
    process.stdout.write(
      `load average at start: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
    );
    if (turns > 0) for (const mode of modes) await latency(root, ctx, turns, mode);
    process.stdout.write(
      `load average after the latency runs: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
    );
    if (agents === 0) return 0;
    const ours = await runnerLaunch(root, ctx, agents);
    const raw = await rawLaunch(agents);
    process.stdout.write(
      `  raw baseline, ${agents} bare services (same image and placement): ${(raw / 1000).toFixed(1)} s  (ratio ${(ours / raw).toFixed(2)}x)\n`,
    );
    return 0;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
