import { existsSync } from 'node:fs';
import type { Server } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import * as path from 'node:path';
import type { AgentLaunchSpec, Runner, RunnerContext, RunnerHandle } from '../../src/index';
import { createBwrapRunner, RunnerError } from '../../src/index';
import { createDockerRunner } from '../../src/lib/docker/docker-runner';
import type { TestDirs } from '../docker/docker-support';
import {
  containersWithLabel,
  describeIfEngine,
  makeCtx,
  makeDirs,
  makeDockerSpec,
  processesWithArgv,
  waitFor,
} from '../docker/docker-support';
import { readJsonIfWritten } from '../support';
import { fetchJson, startMockLlm, stopMockLlm } from './mock-llm-support';
import type { ProbeResult } from './probe-script';
import { PROBE_SCRIPT } from './probe-script';
import { codeOf, listen } from '@genswarms/test-kit';

const BWRAP = ['/usr/bin/bwrap', '/bin/bwrap'].find((p) => existsSync(p));
const SOCAT = ['/usr/bin/socat', '/bin/socat'].find((p) => existsSync(p));

interface Recorded {
  url: string;
  host: string | undefined;
}

/** The operator's LLM plus two services the agent must never reach. */
interface World {
  llmPort: number;
  /** What the LLM received (path and Host header), in order. */
  llmSeen(): Promise<Recorded[]>;
  orchestratorPort: number;
  otherPort: number;
  /** Connections the forbidden services accepted (must stay 0). */
  forbiddenHits: number;
  close(): Promise<void>;
}

async function startWorld(): Promise<World> {
  const llm = await startMockLlm();
  const world: World = {
    llmPort: llm.port,
    llmSeen: async () =>
      ((await fetchJson(llm.port, '/__mock/requests')) as Array<{ path: string; headers: Record<string, string> }>).map((r) => ({
        url: r.path,
        host: r.headers['host'],
      })),
    orchestratorPort: 0,
    otherPort: 0,
    forbiddenHits: 0,
    close: async () => undefined,
  };
  const forbidden = (): Server =>
    createTcpServer((s) => {
      world.forbiddenHits += 1;
      s.destroy();
    });
  const orchestrator = forbidden();
  const other = forbidden();
  world.orchestratorPort = await listen(orchestrator, '0.0.0.0'); // all interfaces: the strongest case
  world.otherPort = await listen(other, '127.0.0.1');
  world.close = async () => {
    await stopMockLlm(llm.child);
    await Promise.all([orchestrator, other].map((s) => new Promise((resolve) => s.close(resolve))));
  };
  return world;
}

/** Every non-loopback IPv4 address of the host (eth0...), plus the default docker bridge gateway. */
function hostAddresses(): string[] {
  const found = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal)
    .map((a) => a?.address ?? '');
  return [...new Set([...found, '172.17.0.1'])];
}

function worldCtx(dirs: TestDirs, world: World): RunnerContext {
  return makeCtx(dirs.home, {
    llm: { defaultEndpoint: `http://127.0.0.1:${world.llmPort}/v1`, serverApiKey: 'sk-proof-SECRET', allowedHosts: ['127.0.0.1'] },
  });
}

function probeSpec(base: Partial<AgentLaunchSpec> & Pick<AgentLaunchSpec, 'workspace'>, world: World): AgentLaunchSpec {
  const cfg = JSON.stringify({ orchestratorPort: world.orchestratorPort, otherPort: world.otherPort, hostIps: hostAddresses() });
  return makeDockerSpec({ network: 'isolated', client: { command: ['/usr/bin/node', '-e', PROBE_SCRIPT, cfg] }, ...base });
}

async function runProbe(
  runner: Runner,
  spec: AgentLaunchSpec,
  ctx: RunnerContext,
  workspace: string,
): Promise<{ result: ProbeResult; handle: RunnerHandle; output: string[] }> {
  const handle = await runner.start(runner.plan(spec, ctx), ctx);
  const output: string[] = [];
  handle.onOutput((s, line) => output.push(`${s}: ${line}`));
  const file = path.join(workspace, 'probe.json');
  try {
    const result = await waitFor(() => readJsonIfWritten<ProbeResult>(file), 'probe.json', { timeoutMs: 60000 });
    return { result, handle, output };
  } catch (err) {
    await handle.stop({ graceMs: 0 });
    throw new Error(`probe produced no report; output:\n${output.join('\n')}`, { cause: err });
  }
}

/** The isolation promise of docs/security.md, asserted on a probe report. */
async function expectIsolated(result: ProbeResult, world: World): Promise<void> {
  expect(result.endpoint).toBe('http://127.0.0.1:17080/v1');
  expect(result.upstream).toBe(`127.0.0.1:${world.llmPort}`);
  expect(result.llm).toMatchObject({ ok: true, status: 200 });
  expect(JSON.parse(result.llm.body ?? '{}')).toMatchObject({ object: 'chat.completion' });
  const seen = await world.llmSeen();
  expect(seen).toContainEqual({ url: '/v1/chat/completions', host: `127.0.0.1:${world.llmPort}` });
  // Another Host header is only bytes: the request still lands at the pinned endpoint.
  expect(result.otherHost).toMatchObject({ ok: true, status: 200 });
  expect(seen).toContainEqual({ url: '/v1/chat/completions?other-host', host: 'evil.example' });
  expect(result.blocked.length).toBeGreaterThanOrEqual(8);
  expect(result.blocked.filter((b) => b.ok)).toEqual([]);
  expect(result.dns.ok).toBe(false);
  expect(result.interfaces).toEqual(['lo']);
  // netlink is refused by the network filter: listing interfaces through it fails instead of answering
  expect(result.netlink).toBe('ERR_SYSTEM_ERROR');
  expect(world.forbiddenHits).toBe(0);
}

/** After a refusal: no egress directory, socket, socat process, state dir or container. */
function expectNothingLeft(ctx: RunnerContext, swarm: string, agent: string): void {
  const egressDir = path.join(ctx.home, 'egress', swarm, agent);
  expect(existsSync(egressDir)).toBe(false);
  expect(existsSync(path.join(ctx.home, 'egress'))).toBe(false);
  expect(existsSync(path.join(ctx.home, 'state', swarm, agent))).toBe(false);
  expect(processesWithArgv(egressDir)).toEqual([]);
}

describeIfEngine('isolation proof: docker (real engine, real socat, the tools mock LLM on loopback)', () => {
  let dirs: TestDirs;
  let world: World;
  const runner = createDockerRunner();
  beforeEach(async () => {
    dirs = makeDirs('gs-proof-');
    world = await startWorld();
  });
  afterEach(async () => {
    await world.close();
    dirs.cleanup();
  });

  it('an isolated docker agent reaches only its pinned LLM', async () => {
    const ctx = worldCtx(dirs, world);
    const spec = probeSpec({ workspace: dirs.workspace, swarm: 'proof', agent: 'dock' }, world);
    const { result, handle } = await runProbe(runner, spec, ctx, dirs.workspace);
    const egressDir = path.join(ctx.home, 'egress', 'proof', 'dock');
    expect(existsSync(path.join(egressDir, 'llm.sock'))).toBe(true);
    expect(processesWithArgv(egressDir).length).toBeGreaterThan(0);
    await handle.stop({ graceMs: 0 });
    await expectIsolated(result, world);
    expect(existsSync(egressDir)).toBe(false);
    expect(processesWithArgv(egressDir)).toEqual([]);
    expect(containersWithLabel('genswarms.swarm', 'proof')).toEqual([]);
  });

  it('an isolated docker agent with an untrusted endpoint is refused and leaves nothing behind', async () => {
    const ctx = worldCtx(dirs, world);
    const spec = probeSpec({ workspace: dirs.workspace, swarm: 'proofx', agent: 'dock', endpoint: 'http://evil.example/v1' }, world);
    expect(codeOf(RunnerError, () => runner.plan(spec, ctx))).toBe('endpoint_not_allowed');
    expectNothingLeft(ctx, 'proofx', 'dock');
    expect(containersWithLabel('genswarms.swarm', 'proofx')).toEqual([]);
  });
});

const describeIfBwrap = BWRAP !== undefined && SOCAT !== undefined ? describe : describe.skip;
if (BWRAP === undefined || SOCAT === undefined)
  console.warn('SKIPPED: bwrap or socat is not installed; the bwrap isolation proof does not run');

describeIfBwrap('isolation proof: bwrap (real bwrap, real socat, the tools mock LLM on loopback)', () => {
  let dirs: TestDirs;
  let world: World;
  const runner = createBwrapRunner();
  beforeEach(async () => {
    dirs = makeDirs('gs-proof-');
    world = await startWorld();
  });
  afterEach(async () => {
    await world.close();
    dirs.cleanup();
  });

  it('an isolated bwrap agent reaches only its pinned LLM', async () => {
    const ctx = worldCtx(dirs, world);
    const spec = probeSpec({ workspace: dirs.workspace, swarm: 'proof', agent: 'bw', backend: 'bwrap' }, world);
    const { result, handle } = await runProbe(runner, spec, ctx, dirs.workspace);
    await handle.stop({ graceMs: 0 });
    await expectIsolated(result, world);
    const egressDir = path.join(ctx.home, 'egress', 'proof', 'bw');
    expect(existsSync(egressDir)).toBe(false);
    expect(processesWithArgv(egressDir)).toEqual([]);
  });

  it('an isolated bwrap agent with an untrusted endpoint is refused and leaves nothing behind', async () => {
    const ctx = worldCtx(dirs, world);
    const spec = probeSpec(
      { workspace: dirs.workspace, swarm: 'proofx', agent: 'bw', backend: 'bwrap', endpoint: 'https://evil.example/v1' },
      world,
    );
    expect(codeOf(RunnerError, () => runner.plan(spec, ctx))).toBe('endpoint_not_allowed');
    expectNothingLeft(ctx, 'proofx', 'bw');
  });
});
