/**
 * An isolated agent's forwarder is recorded: `egress_started` when it is up, `egress_stopped` when it
 * goes (agent stopped or restarted, or the client exited on its own), `egress_failed` when it cannot
 * start or dies under a running agent — with the pinned host:port and the socket's file name, never the
 * socket's path below GENSWARMS_HOME.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { EGRESS_SOCKET_NAME, UPSTREAM_SOCKET_SUFFIX } from '@genswarms/egress';
import { eventsOf, makeHarness, waitEvent, waitFor, type Harness } from './harness';

const haveBinary = (name: string): boolean => ['/usr/local/bin', '/usr/bin', '/bin'].some((d) => fs.existsSync(path.join(d, name)));
const ready = haveBinary('bwrap') && haveBinary('socat');
const suite = ready ? describe : describe.skip;
if (!ready) console.warn('SKIPPED engine-egress-events: bubblewrap or socat is not installed');

/** The agent: idles until `/workspace/exit-now` exists, then exits 0. */
const IDLE_AGENT = `const fs = require('node:fs');
setInterval(() => { if (fs.existsSync('/workspace/exit-now')) process.exit(0); }, 50);
`;

suite('egress_started / egress_stopped for an isolated bwrap agent', () => {
  let server: http.Server;
  let port = 0;
  let entryDir = '';
  let h: Harness | undefined;

  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('{}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    entryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-egress-entry-'));
    fs.chmodSync(entryDir, 0o755); // the sandbox mounts it read-only for the agent uid
    fs.writeFileSync(path.join(entryDir, 'idle-agent.js'), IDLE_AGENT, { mode: 0o644 });
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(entryDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    h = await makeHarness({ agentEntry: path.join(entryDir, 'idle-agent.js'), llmEndpoint: `http://127.0.0.1:${port}/v1` });
  });
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  const isolated = { name: 'a', backend: 'bwrap', network: 'isolated' };
  const facts = (): Record<string, unknown> => ({ host: '127.0.0.1', port, socket: EGRESS_SOCKET_NAME });

  async function typesOf(engine: Harness['engine'], type: string): Promise<number> {
    return (await eventsOf(engine, 's')).filter((e) => e.event_type === type).length;
  }

  it('records the start with agent, pinned host:port and the socket file name only; the stop when the swarm stops', async () => {
    const engine = h!.engine;
    await engine.startSwarm({ config: { name: 's', agents: [isolated] } });
    const started = await waitEvent(engine, 's', (e) => e.event_type === 'egress_started', 'egress_started');
    expect(started).toMatchObject({ agent: 'a', category: 'backend', level: 'info', metadata: facts() });
    expect(started.message).toContain(`127.0.0.1:${port}`);
    expect(JSON.stringify(started)).not.toContain(h!.home); // the socket's path is below GENSWARMS_HOME
    await engine.stopSwarm('s');
    const stopped = await waitEvent(engine, 's', (e) => e.event_type === 'egress_stopped', 'egress_stopped');
    expect(stopped).toMatchObject({ agent: 'a', category: 'backend', metadata: { ...facts(), reason: 'agent_stopped' } });
    expect(JSON.stringify(stopped)).not.toContain(h!.home);
    expect(await typesOf(engine, 'egress_stopped')).toBe(1);
  });

  it('records a restart as a stop and a new start', async () => {
    const engine = h!.engine;
    await engine.startSwarm({ config: { name: 's', agents: [isolated] } });
    await waitEvent(engine, 's', (e) => e.event_type === 'egress_started', 'egress_started');
    await engine.restartAgent('s', 'a');
    await waitFor(async () => (await typesOf(engine, 'egress_started')) === 2, 'second egress_started');
    const kinds = (await eventsOf(engine, 's')).map((e) => e.event_type).filter((t) => t.startsWith('egress_'));
    expect(kinds).toEqual(['egress_started', 'egress_stopped', 'egress_started']);
  });

  it('records the stop when the client exits on its own', async () => {
    const engine = h!.engine;
    await engine.startSwarm({ config: { name: 's', agents: [isolated] } });
    await waitEvent(engine, 's', (e) => e.event_type === 'egress_started', 'egress_started');
    fs.writeFileSync(path.join(h!.home, 'workspaces', 's', 'a', 'exit-now'), '');
    const stopped = await waitEvent(engine, 's', (e) => e.event_type === 'egress_stopped', 'egress_stopped');
    expect(stopped.metadata).toEqual({ ...facts(), reason: 'process_exited' });
  });

  it('records egress_failed when the forwarder dies under a running agent (killed socat)', async () => {
    const engine = h!.engine;
    await engine.startSwarm({ config: { name: 's', agents: [isolated] } });
    await waitEvent(engine, 's', (e) => e.event_type === 'egress_started', 'egress_started');
    // the pinned socat listens on its private socket behind the metering relay (which holds llm.sock)
    const socket = path.join(h!.home, 'egress', 's', `a${UPSTREAM_SOCKET_SUFFIX}`);
    const [pid] = processesWithArgv(socket);
    expect(pid).toBeDefined();
    process.kill(pid as number, 'SIGKILL');
    const failed = await waitEvent(engine, 's', (e) => e.event_type === 'egress_failed', 'egress_failed');
    expect(failed).toMatchObject({
      agent: 'a',
      level: 'error',
      metadata: { ...facts(), reason: 'forwarder_exited', detail: 'socat killed by SIGKILL' },
    });
    expect(failed.message).toBe(
      `Agent a: egress forwarder to 127.0.0.1:${port} died while the agent runs (socat killed by SIGKILL); the agent cannot reach its LLM — restart it.`,
    );
    expect(JSON.stringify(failed)).not.toContain(h!.home);
    await engine.stopSwarm('s'); // the forwarder's end is already recorded: no egress_stopped after it
    expect(await typesOf(engine, 'egress_stopped')).toBe(0);
  });

  it('records egress_failed when the forwarder cannot start (its directory is not ours), and the agent fails', async () => {
    const engine = h!.engine;
    fs.mkdirSync(path.join(h!.home, 'egress', 's'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(h!.home, 'egress', 's', 'a'), 'planted'); // where the forwarder's directory goes
    await engine.startSwarm({ config: { name: 's', agents: [isolated] } });
    const failed = await waitEvent(engine, 's', (e) => e.event_type === 'egress_failed', 'egress_failed');
    expect(failed.metadata).toMatchObject({ ...facts(), reason: 'forwarder_start_failed' });
    const agentFailed = await waitEvent(engine, 's', (e) => e.event_type === 'agent_failed', 'agent_failed');
    expect(agentFailed.metadata).toMatchObject({ reason: 'egress_unavailable' });
    expect(await typesOf(engine, 'egress_started')).toBe(0);
  });
});

/** Pids whose argv contains `needle` (the forwarder's socat names its listening socket path). */
function processesWithArgv(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`).toString('utf8').includes(needle)) pids.push(Number(entry));
    } catch {
      // expected: the process exited while we looked
    }
  }
  return pids;
}
