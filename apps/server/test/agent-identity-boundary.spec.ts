/**
 * One identity per agent, end to end (docs/security.md "One identity per agent"): a root server with an id
 * range runs a real unsandboxed `local` agent next to a real local peer, a tmux pane agent, a real bwrap agent (`network: none`,
 * seccomp on) and a real docker agent, each holding a canary in its environment. The local agent tries to read
 * every other agent's `/proc/<pid>/environ`, list its `/proc/<pid>/root`, signal and ptrace it, enter its user
 * namespace, and open its state dir and default workspace: every attempt is refused. The same swarm on a shared-uid server (the weaker mode) lets it
 * read its local peer's canary — so this spec fails when agents share an identity.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { startEngineServer, waitFor, type EngineServer } from './support/engine-server';
import type { ServerConfig } from '../src/index';

const isRoot = process.getuid?.() === 0;
const HAVE = ['/usr/bin/bwrap', '/usr/bin/setpriv'].every((b) => existsSync(b));
const HAVE_DOCKER = existsSync('/var/run/docker.sock');
const HAVE_TMUX = existsSync('/usr/bin/tmux');
if (!isRoot || !HAVE) console.warn('SKIPPING the identity boundary spec: needs root, bwrap and setpriv (CI has them)');
const describeIf = isRoot && HAVE ? describe : describe.skip;
const TEST_IMAGE = 'genswarms/test-agent:latest';
const RANGE = { first: 231000, last: 231099 };
const CANARY = 'canary-7f3a9c-identity';

/** The local agent's code: waits for targets.json in its workspace, tries each read, writes results.json. */
const SPY = `
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const attempt = (fn) => { try { return { ok: true, value: String(fn()).slice(0, 4000) }; } catch (e) { return { ok: false, code: e.code || String(e.status) }; } };
// a child that fails on 'Operation not permitted' is EPERM; one still running at the timeout got in (attached)
const run = (file, args) => { try { execFileSync(file, args, { timeout: 1500, stdio: ['ignore', 'ignore', 'pipe'] }); return { ok: true }; }
  catch (e) { return { ok: false, code: e.code === 'ETIMEDOUT' ? 'ATTACHED' : /Operation not permitted/.test(String(e.stderr)) ? 'EPERM' : /Permission denied/.test(String(e.stderr)) ? 'EACCES' : String(e.status) }; } };
const tick = setInterval(() => {
  if (!fs.existsSync('targets.json')) return;
  clearInterval(tick);
  const t = JSON.parse(fs.readFileSync('targets.json', 'utf8'));
  const out = { uid: process.getuid(), victims: {} };
  for (const [name, v] of Object.entries(t.victims)) {
    out.victims[name] = {
      environ: attempt(() => fs.readFileSync('/proc/' + v.pid + '/environ', 'utf8')),
      root: attempt(() => fs.readdirSync('/proc/' + v.pid + '/root/').join(',')),
      signal: attempt(() => process.kill(v.pid, 0) || 'signalled'),
      stateDir: attempt(() => fs.readdirSync(v.stateDir).join(',')),
      workspace: attempt(() => fs.readdirSync(v.workspace).join(',')),
      ptrace: run('/usr/bin/strace', ['-p', String(v.pid), '-o', '/dev/null']),
      setns: run('/usr/bin/nsenter', ['-t', String(v.pid), '-U', '/bin/true']),
    };
  }
  out.db = attempt(() => fs.readFileSync(t.db).length);
  fs.writeFileSync('results.tmp', JSON.stringify(out));
  fs.renameSync('results.tmp', 'results.json');
  setInterval(() => {}, 1000);
}, 50);
`;
const IDLE = 'setInterval(() => {}, 1000)';

interface Attempt {
  ok: boolean;
  value?: string;
  code?: string;
}
interface SpyResult {
  uid: number;
  victims: Record<string, Record<'environ' | 'root' | 'signal' | 'stateDir' | 'workspace' | 'ptrace' | 'setns', Attempt>>;
  db: Attempt;
}
interface AgentView {
  name: string;
  state: string;
  isolation: { pid: number; uid?: number; gid?: number } | null;
}

function swarmConfig(name: string, withSandboxes: boolean): Record<string, unknown> {
  const env = { config: { env: { CANARY } } };
  const agents: Record<string, unknown>[] = [
    { name: 'spy', backend: { type: 'local' }, client: { command: ['/usr/bin/node', '-e', SPY] } },
    { name: 'peer', backend: { type: 'local' }, client: { command: ['/usr/bin/node', '-e', IDLE] }, ...env },
  ];
  if (HAVE_TMUX) agents.push({ name: 'paned', backend: { type: 'tmux' }, client: { command: ['/usr/bin/node', '-e', IDLE] }, ...env });
  if (withSandboxes) {
    agents.push({
      name: 'boxed',
      backend: { type: 'bwrap' },
      network: 'none',
      client: { command: ['/usr/bin/node', '-e', IDLE] },
      config: { env: { CANARY }, seccomp: 'default' },
    });
    if (HAVE_DOCKER)
      agents.push({
        name: 'docked',
        backend: { type: 'docker', image: TEST_IMAGE },
        network: 'none',
        client: { command: ['/usr/bin/node', '-e', IDLE] },
        ...env,
      });
  }
  return { name, agents };
}

/** Every agent of `swarm` once all are idle with their isolation read (the last answer in the error otherwise). */
async function idleAgents(s: EngineServer, swarm: string): Promise<AgentView[]> {
  let last: unknown;
  return waitFor(
    async () => {
      const body = (await request(s.url).get(`/api/swarms/${swarm}`)).body as { agents: AgentView[] };
      last = body;
      return body.agents.every((a) => a.isolation !== null && a.state === 'idle') ? body.agents : undefined;
    },
    'every agent idle with its isolation read',
    { timeoutMs: 60_000 },
  ).catch((e: unknown) => {
    throw new Error(`${String(e)}: ${JSON.stringify(last)}`);
  });
}

async function runSpy(s: EngineServer, swarm: string, withSandboxes: boolean): Promise<{ result: SpyResult; agents: AgentView[] }> {
  await request(s.url)
    .post('/api/swarms')
    .send({ config: swarmConfig(swarm, withSandboxes) })
    .expect(201);
  const agents = await idleAgents(s, swarm);
  const victims: Record<string, { pid: number; stateDir: string; workspace: string }> = {};
  for (const a of agents) {
    if (a.name === 'spy' || a.isolation === null) continue;
    victims[a.name] = {
      pid: a.isolation.pid,
      stateDir: join(s.home, 'state', swarm, a.name),
      workspace: join(s.home, 'workspaces', swarm, a.name),
    };
  }
  const spyWs = join(s.home, 'workspaces', swarm, 'spy');
  writeFileSync(join(spyWs, 'targets.json'), JSON.stringify({ victims, db: join(s.home, 'genswarms.db') }), { mode: 0o644 });
  const result = await waitFor(
    async () => {
      const file = join(spyWs, 'results.json');
      return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SpyResult) : undefined;
    },
    "the spy's results",
    { timeoutMs: 30_000 },
  );
  return { result, agents };
}

describeIf('one identity per agent: an unsandboxed agent reaches no other agent', () => {
  let s: EngineServer;
  const agentIds: ServerConfig['agentIds'] = { kind: 'per_agent', range: RANGE };

  beforeAll(async () => {
    s = await startEngineServer({ agentIds });
  }, 60_000);
  afterAll(async () => {
    await request(s.url).delete('/api/swarms/idb?purge=true');
    await s?.close();
  }, 60_000);

  it('every agent runs as its own uid from the range, never the traversal group, never 0', async () => {
    const { result, agents } = await runSpy(s, 'idb', true);
    const uids = agents.map((a) => a.isolation?.uid);
    expect(new Set(uids).size).toBe(agents.length);
    for (const uid of uids) {
      expect(uid).toBeGreaterThan(RANGE.first);
      expect(uid).toBeLessThanOrEqual(RANGE.last);
    }
    expect(result.uid).toBe(agents.find((a) => a.name === 'spy')?.isolation?.uid);

    const names = Object.keys(result.victims).sort();
    expect(names).toEqual(['boxed', ...(HAVE_DOCKER ? ['docked'] : []), ...(HAVE_TMUX ? ['paned'] : []), 'peer']);
    for (const name of names) {
      const { setns, ...v } = result.victims[name] ?? { setns: undefined };
      expect({ name, ...v }).toEqual({
        name,
        environ: { ok: false, code: 'EACCES' },
        root: { ok: false, code: 'EACCES' },
        signal: { ok: false, code: 'EPERM' },
        stateDir: { ok: false, code: 'EACCES' },
        workspace: { ok: false, code: 'EACCES' },
        ptrace: { ok: false, code: 'EPERM' },
      });
      expect(setns?.ok).toBe(false);
    }
    // the sandbox's user namespace belongs to the bwrap agent's own uid: not even its ns file opens
    expect(result.victims['boxed']?.setns).toEqual({ ok: false, code: 'EACCES' });
    expect(result.db).toEqual({ ok: false, code: 'EACCES' });
    expect(JSON.stringify(result)).not.toContain(CANARY);
  }, 120_000);

  it('a restart of the swarm keeps each agent its ids', async () => {
    const before = ((await request(s.url).get('/api/swarms/idb')).body as { agents: AgentView[] }).agents;
    await request(s.url).post('/api/swarms/idb/restart').send({}).expect(200);
    const after = await idleAgents(s, 'idb');
    const uidOf = (list: AgentView[]): Record<string, number | undefined> =>
      Object.fromEntries(list.map((a) => [a.name, a.isolation?.uid]));
    expect(uidOf(after)).toEqual(uidOf(before));
  }, 120_000);
});

describeIf('the shared-uid mode (the control: what one identity per agent prevents)', () => {
  let s: EngineServer;
  beforeAll(async () => {
    s = await startEngineServer({ agentIds: { kind: 'shared', uid: 65532, gid: 65532 }, agent: { uid: 65532, gid: 65532 } });
  }, 60_000);
  afterAll(async () => {
    await request(s.url).delete('/api/swarms/shd?purge=true');
    await s?.close();
  }, 60_000);

  it("an unsandboxed agent reads its same-uid peer's environment (canary included)", async () => {
    const { result } = await runSpy(s, 'shd', false);
    expect(result.victims['peer']?.environ.ok).toBe(true);
    expect(result.victims['peer']?.environ.value).toContain(CANARY);
    expect(result.victims['peer']?.ptrace).toEqual({ ok: false, code: 'ATTACHED' });
  }, 120_000);
});
