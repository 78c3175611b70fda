/**
 * The secrets scan (docs/reliability.md "Secrets scan"). Distinct random canaries are planted in
 * GENSWARMS_API_TOKEN, the config token (through GENSWARMS_CONFIG_API_TOKEN_FILE), GENSWARMS_LLM_API_KEY, and in
 * each agent's `api_key` and `config.env`; a real server process runs one swarm with an agent on every backend
 * available here (local, bwrap, docker, tmux, tmux+bwrap, tmux+docker, ssh to a real sshd, the Docker swarm
 * backend on the two-node cluster); each agent runs a turn and routes a message to `hub`. Then every place a
 * secret could land is read — /proc of every process, tmux environments, options and panes, `docker inspect` of
 * every object on every engine, the server's log, every API answer, every socket push and ack, genswarms.db and
 * its -wal/-shm, every file under GENSWARMS_HOME and the ssh remote directory — while the swarm runs, after its
 * stop and after the purge. Any hit fails the test naming where. The only exceptions are listed (EXCEPTIONS) and
 * checked: they must hold what they were given, be 0600 and be gone when they should be. Full mode
 * (GENSWARMS_RELIABILITY=full) adds a server SIGKILL + restart (crash recovery re-adopts every agent) and a
 * second round of turns before the stop.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildOnce, redactedHeaderValue, startMockLlm, startTestSshd, testSshdUnavailable } from '@genswarms/tools';
import type { MockLlm, TestSshd } from '@genswarms/tools';
import { waitFor } from './support/engine-server';
import { FULL, killTmuxServer, recordFigures, type FigureRow } from './support/fault-kit';
import { freePort, kill9 } from './support/server-process';
import { canariesIn, canary, hitsIn, scanDocker, scanProcesses, scanTmux, scanTree } from './support/secrets-scan-kit';
import type { Canaries, Hit } from './support/secrets-scan-kit';
import { HEADLESS_CLIENT, NODE2_SOCKET, NODES_FILE, scanBackends, TUI_CLIENT, UNTRUSTED } from './support/secrets-scan-swarm';
import type { ScanBackend } from './support/secrets-scan-swarm';
import { freshRequest, startServerProcess, type Server } from './support/secrets-scan-http';
import { connectSwarm } from './support/swarm-socket';
import type { SwarmClient } from './support/swarm-socket';

const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');
const SWARM = 'secscan';
const SSH_REMOTE = '/root/.genswarms-ssh';
const TMUX = '/usr/bin/tmux';
const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

/** The server-level canaries; the per-agent ones are added when the backends are known. */
const C: Record<string, string> = {
  apiToken: canary('apitoken'),
  configToken: canary('cfgtoken'),
  operatorKey: canary('llmkey'),
  /** A secret-named key deep in an agent's `config` (redacted and moved to the secret store; never an env value). */
  configPassword: canary('cfgpassword'),
  /** In an endpoint's userinfo: refused at validation (it would be stored and shown as written). */
  endpointCredential: canary('endpointcred'),
};

let base: string;
let home: string;
let port: number;
let llm: MockLlm;
let sshd: TestSshd | undefined;
let server: Server | undefined;
let backends: ScanBackend[] = [];
let running: ScanBackend[] = [];
const answers: Array<{ what: string; text: string }> = [];
const figures: FigureRow[] = [];

function serverEnv(): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: base,
    PORT: String(port),
    GENSWARMS_HOME: home,
    GENSWARMS_SWARM_CONFIG_DIR: join(base, 'configs'),
    GENSWARMS_LOG_LEVEL: 'debug',
    GENSWARMS_API_TOKEN: C['apiToken'] ?? '',
    GENSWARMS_CONFIG_API_TOKEN_FILE: join(base, 'operator', 'config-token'),
    GENSWARMS_LLM_ENDPOINT: `${llm.url}/v1`,
    GENSWARMS_LLM_API_KEY: C['operatorKey'] ?? '',
    ...(existsSync(NODES_FILE) ? { GENSWARMS_SWARM_NODES: NODES_FILE } : {}),
  };
}

/** The built server, its whole stdout+stderr (the server log) kept; resolves once it listens. */
function startServer(log: string[] = []): Promise<Server> {
  return startServerProcess(MAIN, base, serverEnv(), log);
}

async function api(method: string, path: string, body?: unknown, token = C['apiToken']): Promise<{ status: number; body: unknown }> {
  const res = await freshRequest(port, method, path, body === undefined ? undefined : JSON.stringify(body), token ?? '');
  answers.push({ what: `${method} ${path} → ${res.status}`, text: res.text });
  let parsed: unknown = res.text;
  try {
    parsed = res.text === '' ? undefined : (JSON.parse(res.text) as unknown);
  } catch {
    // expected: text answers (/metrics, YAML snapshot)
  }
  return { status: res.status, body: parsed };
}

type Row = Record<string, unknown>;
const agentNames = (): string[] => ['hub', ...running.map((b) => b.name)];

function swarmConfig(): Row {
  const agents: Row[] = [
    // genswarms-agent on the operator's trusted endpoint: holds the operator key
    { name: 'hub', backend: { type: 'local' }, config: { db: { password: C['configPassword'] } } },
    ...running.map((b) => ({
      name: b.name,
      backend: b.backend,
      client: { command: ['/bin/sh', '-c', b.tui ? TUI_CLIENT : HEADLESS_CLIENT] },
      ...(b.network === undefined ? { endpoint: UNTRUSTED } : { network: b.network }),
      api_key: C[`key-${b.name}`],
      config: { env: { SCAN_ENV: C[`env-${b.name}`] } },
    })),
  ];
  return { name: SWARM, agents, topology: running.map((b) => [b.name, 'hub']) };
}

/** What each agent was given and may hold in its own processes. */
function allowedFor(agent: string): ReadonlySet<string> {
  if (agent === 'hub') return new Set(['operatorKey']);
  const b = running.find((x) => x.name === agent);
  if (b === undefined) return new Set();
  return new Set([`env-${agent}`, ...(b.network === 'none' ? [] : [`key-${agent}`])]);
}

/** Waits until every agent is idle (polled together); records when each got there. */
async function waitAllIdle(idleAt: Record<string, number> = {}): Promise<void> {
  const t0 = Date.now();
  await Promise.all(
    agentNames().map((a) =>
      waitFor(
        async () => {
          const st = (await api('GET', `/api/swarms/${SWARM}/agents/${a}`)).body as Row;
          if (st['state'] === 'failed') throw new Error(`${a} failed: ${JSON.stringify(st)}`);
          if (st['state'] !== 'idle') return false;
          idleAt[a] = Math.round((Date.now() - t0) / 100) / 10;
          return true;
        },
        `${a} idle`,
        { timeoutMs: 240_000 },
      ),
    ),
  );
}

async function completedTurns(agent: string): Promise<Row[]> {
  const turns = ((await api('GET', `/api/swarms/${SWARM}/agents/${agent}/turns?limit=500`)).body as Row)['turns'] as Row[];
  return turns.filter((t) => t['status'] === 'completed');
}

/** One task per agent; each backend agent's reply routes a message to hub; waits for every turn. */
async function roundOfTurns(n: number): Promise<void> {
  for (const a of agentNames()) {
    const r = await api('POST', `/api/swarms/${SWARM}/agents/${a}/task`, { task: `scan task ${n} for ${a}` });
    expect([a, r.status]).toEqual([a, 200]);
  }
  for (const b of running)
    await waitFor(async () => (await completedTurns(b.name)).length >= n, `${b.name}: ${n} turns`, { timeoutMs: 180_000 });
  // hub: its own task plus one routed message per backend agent, per round
  await waitFor(async () => (await completedTurns('hub')).length >= n * (running.length + 1), `hub: ${n} rounds`, { timeoutMs: 180_000 });
}

/** Every GET of the OpenAPI document with the swarm's names filled in, plus the POSTs that answer with configs. */
async function collectApiAnswers(): Promise<void> {
  const doc = (await api('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  const turnIds = new Map<string, string>();
  const gets: string[] = [];
  for (const a of agentNames()) turnIds.set(a, String((await completedTurns(a))[0]?.['id'] ?? 'none'));
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!('get' in ops) || /\{(o|name|base)\}|:(o|name|base)\b/.test(path)) continue; // no objects or skills in this swarm
    const fill = (a: string): string =>
      path
        .replace(/\{s\}|:s\b/g, SWARM)
        .replace(/\{a\}|:a\b/g, a)
        .replace(/\{t\}|:t\b/g, turnIds.get(a) ?? 'none');
    const perAgent = /\{a\}|:a\b/.test(path);
    for (const a of perAgent ? agentNames() : ['hub']) {
      const p = fill(a);
      gets.push(/events|turns|messages|history/.test(p) ? `${p}?limit=1000` : p);
    }
  }
  for (let i = 0; i < gets.length; i += 8) await Promise.all(gets.slice(i, i + 8).map((q) => api('GET', q)));
  await api('GET', '/metrics');
  await api('POST', `/api/swarms/${SWARM}/snapshot`);
  await api('POST', `/api/swarms/${SWARM}/snapshot?format=yaml`);
  await api('GET', `/api/swarms/${SWARM}/overlay`, undefined, C['configToken']);
  await api('POST', '/api/config/validate', { config: swarmConfig() });
  const credentialed = {
    name: 'credendpoint',
    agents: [{ name: 'a', backend: { type: 'local' }, endpoint: `http://user:${C['endpointCredential'] ?? ''}@untrusted.invalid/v1` }],
  };
  for (const path of ['/api/config/validate', '/api/swarms']) expect((await api('POST', path, { config: credentialed })).status).toBe(400);
}

function allCanaries(): Canaries {
  return { ...C };
}

interface PhaseResult {
  hits: Hit[];
  counts: Row;
}

/** Every place but the API answers and pushes (checked once at the end): /proc, tmux, docker, files, DB, server log. */
async function scanPlaces(phase: string): Promise<PhaseResult> {
  const canaries = allCanaries();
  const hits: Hit[] = [];
  const t0 = Date.now();
  const took: Record<string, number> = {};
  const lap = (k: string): void => {
    took[k] = (Date.now() - t0) / 1000;
  };
  const proc = scanProcesses(SWARM, canaries, allowedFor, new Set([process.pid]));
  hits.push(...proc.hits.map((h) => ({ ...h, where: `${phase}: ${h.where}` })));
  lap('proc');
  const tmux = scanTmux(join(home, 'tmux', 'tmux.sock'), canaries);
  lap('tmux');
  hits.push(...tmux.hits.map((h) => ({ ...h, where: `${phase}: ${h.where}` })));
  let dockerObjects = 0;
  let dockerInspected = '';
  for (const socket of ['/var/run/docker.sock', NODE2_SOCKET]) {
    if (!existsSync(socket)) continue;
    const d = await scanDocker(socket, SWARM, canaries, socket === '/var/run/docker.sock');
    dockerObjects += d.objects;
    dockerInspected += d.inspected;
    hits.push(...d.hits.map((h) => ({ ...h, where: `${phase}: ${h.where}` })));
  }
  lap('docker');
  const files = [home, ...(existsSync(SSH_REMOTE) ? [SSH_REMOTE] : [])].map((root) => scanTree(root, canaries, isExcepted));
  for (const f of files) hits.push(...f.hits.map((h) => ({ ...h, where: `${phase}: ${h.where}` })));
  hits.push(...hitsIn(server?.log.join('') ?? '', `${phase}: server log (stdout+stderr)`, canaries));
  lap('files+log');
  for (const ex of files.flatMap((f) => f.excepted)) {
    // an exception must be a 0600 file of the kind listed, holding only what its agent (or swarm) was given
    expect({ path: ex.path, mode: (ex.mode & 0o777).toString(8) }).toEqual({ path: ex.path, mode: '600' });
    const agent = envFileAgent(ex.path);
    if (agent !== undefined)
      for (const c of ex.holds) expect({ path: ex.path, c, ok: allowedFor(agent).has(c) }).toMatchObject({ ok: true });
  }
  for (const b of [{ name: 'hub' }, ...running]) {
    if (b.name === 'sw') continue; // its env is a Docker secret on the node (checked by docker inspect: no value)
    const held = proc.agentHeld.get(b.name);
    if (phase.startsWith('running'))
      expect({ agent: b.name, held: [...(held ?? [])].sort() }).toEqual({ agent: b.name, held: [...allowedFor(b.name)].sort() });
  }
  if (phase.startsWith('running')) {
    // controls: the tmux scan finds a value planted in the global environment; docker inspect read our objects
    const sock = join(home, 'tmux', 'tmux.sock');
    const control = canary('control');
    const setEnv = spawnSync(TMUX, ['-S', sock, 'set-environment', '-g', 'GS_SCAN_CONTROL', control], { shell: false });
    expect(setEnv.status).toBe(0);
    expect(scanTmux(sock, { control }).hits.map((h) => h.canary)).toContain('control');
    spawnSync(TMUX, ['-S', sock, 'set-environment', '-g', '-u', 'GS_SCAN_CONTROL'], { shell: false });
    if (running.some((b) => b.name === 'dk' || b.name === 'sw')) expect(dockerInspected).toContain(`"genswarms.swarm":"${SWARM}"`);
  }
  return {
    hits,
    counts: {
      took,
      processes: proc.processes,
      tmuxSessions: tmux.sessions,
      tmuxPanes: tmux.panes,
      dockerObjects,
      files: files.reduce((a, f) => a + f.files, 0),
      bytes: files.reduce((a, f) => a + f.bytes, 0),
      excepted: files.flatMap((f) => f.excepted.map((e) => `${e.path.replace(home, '$GENSWARMS_HOME')} ${e.holds.join(',')}`)),
    },
  };
}

/** The secret store of the swarm and its key, and each agent's env file (while it exists): the files designed to hold secrets. */
const EXCEPTIONS = [
  /\/secrets\/\.key$/,
  new RegExp(`/secrets/${SWARM}/[^/]+$`),
  /\/\.genswarms\/env$/,
  /\/\.genswarms-ssh\/agents\/[0-9a-f]+\/env$/,
];
function isExcepted(path: string): boolean {
  if (path.startsWith(SSH_REMOTE) && !path.startsWith(`${SSH_REMOTE}/`)) return false;
  return EXCEPTIONS.some((re) => re.test(path));
}
function envFileAgent(path: string): string | undefined {
  const m = new RegExp(`/state/${SWARM}/([^/]+)/\\.genswarms/env$`).exec(path);
  return m?.[1];
}

beforeAll(async () => {
  const built = buildOnce([join(ROOT, 'apps/agent/tsconfig.lib.json'), join(ROOT, 'apps/server/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`build failed: ${built.output}`);
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gs-secscan-')));
  chmodSync(base, 0o711); // search only: a root server runs its agents as the agent uid below this directory
  home = join(base, 'home');
  for (const d of ['configs', 'operator', 'ssh']) mkdirSync(join(base, d), { mode: 0o700 });
  writeFileSync(join(base, 'operator', 'config-token'), `${C['configToken']}\n`, { mode: 0o600 });
  llm = await startMockLlm({ script: [{ match: 'scan', response: 'hub ack' }] });
  let ssh: Parameters<typeof scanBackends>[1];
  if (testSshdUnavailable() === null) {
    sshd = await startTestSshd();
    const knownHosts = join(base, 'ssh', 'known_hosts');
    writeFileSync(knownHosts, `${sshd.knownHostsLine()}\n`, { mode: 0o600 });
    ssh = { user: sshd.user, host: sshd.host, port: sshd.port, keyPath: sshd.userKeyPath, knownHosts };
  }
  backends = scanBackends(FULL, ssh);
  running = backends.filter((b) => b.skip === '');
  for (const b of backends.filter((x) => x.skip !== '')) console.warn(`secrets-scan: backend ${b.name} skipped: ${b.skip}`);
  for (const b of running) {
    C[`key-${b.name}`] = canary(`key-${b.name}`);
    C[`env-${b.name}`] = canary(`env-${b.name}`);
  }
  port = await freePort();
  server = await startServer();
}, 620_000);

afterAll(async () => {
  if (base === undefined) return;
  if (server !== undefined) {
    await api('DELETE', `/api/swarms/${SWARM}?purge=true`).catch(() => undefined);
    await kill9(server.child);
  }
  killTmuxServer(home);
  await llm?.close();
  await sshd?.stop();
  // the remote side of the ssh agent is this host: its agent directory stays by design (docs/runners.md), remove it
  rmSync(join(SSH_REMOTE, 'agents', createHash('sha256').update(`${home}\0${SWARM}\0ssh`).digest('hex').slice(0, 32)), {
    recursive: true,
    force: true,
  });
  recordFigures('secrets-scan', figures);
  rmSync(base, { recursive: true, force: true });
}, 180_000);

describe('secrets scan: canaries on every backend reach no process, log, event, answer, push, file or container they were not given to', () => {
  it(
    `${FULL ? 'full' : 'fast'}: one swarm, one agent per backend`,
    async () => {
      const started = Date.now();
      const hits: Hit[] = [];
      const phases: Row = {};
      const timings: Record<string, number> = {};
      const mark = (k: string): void => {
        timings[k] = Math.round((Date.now() - started) / 100) / 10;
      };
      const created = await api('POST', '/api/swarms', { config: swarmConfig() });
      expect([created.status, JSON.stringify(created.body).slice(0, 600)]).toEqual([201, expect.any(String)]);
      let sock: SwarmClient = await connectSwarm(`http://127.0.0.1:${port}`, { token: C['apiToken'] });
      const pushes = (): SwarmClient['pushes'] => [...earlier, ...sock.pushes];
      const earlier: SwarmClient['pushes'] = [];
      const acks: unknown[] = [];
      try {
        acks.push(await sock.ask('join', { swarm: SWARM }));
        acks.push(await sock.ask('subscribe_events', {}));
        acks.push(await sock.ask('subscribe_logs', {}));
        const idleAt: Record<string, number> = {};
        await waitAllIdle(idleAt);
        mark('idle');
        phases['idle after (s)'] = idleAt;
        await roundOfTurns(1);
        mark('turns');
        acks.push(await sock.ask('get_status', {}));
        const run1 = await scanPlaces('running');
        hits.push(...run1.hits);
        phases['running'] = run1.counts;
        mark('scan running');

        if (FULL) {
          // crash recovery: SIGKILL, restart on the same home, every agent re-adopted, a second round
          sock.close();
          earlier.push(...sock.pushes);
          await kill9(server!.child);
          server = await startServer(server!.log);
          sock = await connectSwarm(`http://127.0.0.1:${port}`, { token: C['apiToken'] });
          acks.push(await sock.ask('join', { swarm: SWARM }));
          acks.push(await sock.ask('subscribe_events', {}));
          acks.push(await sock.ask('subscribe_logs', {}));
          await waitAllIdle();
          await roundOfTurns(2);
          const run2 = await scanPlaces('running after restart');
          hits.push(...run2.hits);
          phases['running after restart'] = run2.counts;
        }

        // the replies prove each client received its own key and env value (hashes only)
        for (const b of running) {
          const reply = String((await completedTurns(b.name))[0]?.['reply_preview'] ?? '');
          const key = b.network === 'none' ? '' : (C[`key-${b.name}`] ?? '');
          expect({ agent: b.name, reply }).toEqual({
            agent: b.name,
            reply: expect.stringContaining(`key=${sha(key).slice(0, 16)} env=${sha(C[`env-${b.name}`] ?? '').slice(0, 16)}`),
          });
        }
        const auth = llm.requests.map((r) => String(r.headers['authorization'] ?? ''));
        expect(auth).toContain(redactedHeaderValue(`Bearer ${C['operatorKey']}`));
        await collectApiAnswers();
        mark('api answers');
      } finally {
        sock.close();
      }

      // stop: containers, services, env files gone; the swarm's secrets stay until the purge
      expect((await api('DELETE', `/api/swarms/${SWARM}`)).status).toBe(200);
      const stopped = await scanPlaces('stopped');
      hits.push(...stopped.hits);
      phases['stopped'] = stopped.counts;
      mark('stop + scan');
      const leftEnvFiles = (stopped.counts['excepted'] as string[]).filter((e) => (e.split(' ')[0] ?? '').endsWith('/env'));
      expect(leftEnvFiles).toEqual([]);
      expect((await api('DELETE', `/api/swarms/${SWARM}?purge=true`)).status).toBe(200);
      const purged = await scanPlaces('purged');
      hits.push(...purged.hits);
      phases['purged'] = purged.counts;
      mark('purge + scan');
      expect((purged.counts['excepted'] as string[]).filter((e) => e.includes(`/secrets/${SWARM}/`))).toEqual([]);
      expect(existsSync(join(home, 'secrets', SWARM))).toBe(false);

      // the DB bytes (checked in every phase with the other files) and, once more, the final -wal/-shm
      for (const f of ['genswarms.db', 'genswarms.db-wal', 'genswarms.db-shm']) {
        const p = join(home, f);
        if (existsSync(p)) hits.push(...hitsIn(readFileSync(p), `final ${f}`, allCanaries()));
      }
      // every API answer and every socket push and ack
      for (const a of answers) hits.push(...hitsIn(a.text, `API ${a.what}`, allCanaries()));
      for (const p of pushes()) hits.push(...hitsIn(JSON.stringify(p), `socket push ${p.type}`, allCanaries()));
      for (const a of acks) hits.push(...hitsIn(JSON.stringify(a), 'socket ack', allCanaries()));

      // the controls: the canaries were really there to be found
      const exceptedSeen = new Set(
        [...((phases['running'] as Row)['excepted'] as string[])].flatMap((e) => e.split(' ')[1]?.split(',') ?? []).filter(Boolean),
      );
      for (const b of running)
        expect({ agent: b.name, inStore: exceptedSeen.has(`env-${b.name}`) }).toEqual({ agent: b.name, inStore: true });
      expect(exceptedSeen.has('configPassword')).toBe(true);
      expect(pushes().length).toBeGreaterThan(0);
      expect(answers.some((a) => a.text.includes('[REDACTED]'))).toBe(true); // the configs were answered, redacted
      expect(server?.log.join('')).toContain('listening on');
      expect(canariesIn(JSON.stringify(pushes()), allCanaries())).toEqual([]);

      const seconds = Math.round((Date.now() - started) / 1000);
      figures.push(
        { target: 'secrets scan', measure: 'backends run', value: running.length, ok: running.length > 0 },
        { target: 'secrets scan', measure: 'backends skipped', value: backends.length - running.length, ok: true },
        { target: 'secrets scan', measure: 'canaries planted', value: Object.keys(C).length, ok: true },
        { target: 'secrets scan', measure: 'API answers scanned', value: answers.length, ok: answers.length > 0 },
        { target: 'secrets scan', measure: 'socket pushes scanned', value: pushes().length, ok: pushes().length > 0 },
        { target: 'secrets scan', measure: 'hits', value: hits.length, goal: '0', ok: hits.length === 0 },
        { target: 'secrets scan', measure: 'seconds', value: seconds, ok: true },
      );
      console.log(
        `secrets-scan: ${running.length} backends (${running.map((b) => b.name).join(',')}), ${Object.keys(C).length} canaries, ${answers.length} API answers, ${pushes().length} pushes, ${seconds} s; timings ${JSON.stringify(timings)}; phases ${JSON.stringify(phases)}`,
      );
      expect(hits).toEqual([]);
    },
    FULL ? 900_000 : 600_000,
  );
});
