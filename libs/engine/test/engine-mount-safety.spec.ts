/**
 * The mount-safety rule through the engine (docs/security.md#10-agent-runners-and-sandboxes "Host paths entering a sandbox"): the
 * engine gives runners every other agent's directories, and a hostile host path is refused at swarm
 * start, on scale, on an overlay replay and at recovery, before any sandbox exists.
 */
import { configToState } from '@genswarms/ir-gate';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineError } from '../src/lib/errors/engine-error';
import { makeHarness, mockAgent, waitFor, type Harness } from './harness';
import { refusal } from '@genswarms/test-kit';

/** What the assertions compare: the code and a plain copy of the details. */
const plain = (e: EngineError): { code: string; details: Record<string, unknown> } => ({ code: e.code, details: { ...e.details } });

/** A bwrap agent whose client is a plain host binary (no agent dist dir is mounted). */
function bwrapAgent(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, backend: { type: 'bwrap' }, network: 'none', client: { command: ['/usr/bin/sleep', '60'] }, ...extra };
}

describe('mount safety through the engine', () => {
  let h: Harness;
  let outside: string;
  beforeEach(async () => {
    h = await makeHarness();
    outside = fs.realpathSync(fs.mkdtempSync(path.join(path.dirname(h.home), 'gs-mountsafety-out-')));
    fs.mkdirSync(path.join(h.home, 'tmux'), { recursive: true });
  });
  afterEach(async () => {
    await h.cleanup();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const HOSTILE: readonly (readonly [string, (home: string) => string])[] = [
    ['the tmux socket directory', (home) => path.join(home, 'tmux')],
    ['GENSWARMS_HOME', (home) => home],
    ["another agent's state dir", (home) => path.join(home, 'state', 'hs', 'other')],
  ];

  it.each(HOSTILE)('a swarm start with a skill naming %s is refused (unsafe_bind, path as written)', async (_n, target) => {
    const written = target(h.home);
    fs.mkdirSync(written, { recursive: true });
    const config = { name: 'hs', agents: [bwrapAgent('esc', { skills: [written] }), mockAgent('other')] };
    expect(plain(await refusal(EngineError, h.engine.startSwarm({ config })))).toEqual({
      code: 'unsafe_bind',
      details: { agent: 'esc', path: written },
    });
    expect(h.engine.swarms.has('hs')).toBe(false);
  });

  it("refuses a bind of another agent's explicit workspace, in the same swarm and across swarms", async () => {
    const ws = path.join(outside, 'ws-a');
    const same = {
      name: 'same',
      agents: [mockAgent('a', undefined, { workspace: ws }), bwrapAgent('b', { config: { extra_ro_binds: [[ws, '/opt/a']] } })],
    };
    expect(plain(await refusal(EngineError, h.engine.startSwarm({ config: same })))).toMatchObject({
      code: 'unsafe_bind',
      details: { agent: 'b', path: ws },
    });
    await h.engine.startSwarm({ config: { name: 'one', agents: [mockAgent('a', undefined, { workspace: ws })] } });
    const other = { name: 'two', agents: [bwrapAgent('b', { skills: [path.join(ws)] })] };
    expect(plain(await refusal(EngineError, h.engine.startSwarm({ config: other })))).toMatchObject({
      code: 'unsafe_bind',
      details: { agent: 'b', path: ws },
    });
    const shared = { name: 'three', agents: [bwrapAgent('c', { workspace: ws })] };
    expect(plain(await refusal(EngineError, h.engine.startSwarm({ config: shared })))).toMatchObject({
      code: 'unsafe_workspace',
      details: { agent: 'c' },
    });
  });

  it('scale re-plans the cloned skills: a skill swapped to a symlink into the home since start is refused, nothing changes', async () => {
    const skill = path.join(outside, 'skill');
    fs.mkdirSync(skill);
    await h.engine.startSwarm({ config: { name: 'sc', agents: [bwrapAgent('w', { skills: [skill] })] } });
    fs.renameSync(skill, `${skill}.orig`);
    fs.symlinkSync(path.join(h.home, 'tmux'), skill);
    expect(plain(await refusal(EngineError, h.engine.scaleAgents('sc', 'w', 2)))).toMatchObject({
      code: 'unsafe_bind',
      details: { path: skill },
    });
    expect((await h.engine.getOverlay('sc')).events).toEqual([]);
    expect((await h.engine.getSwarm('sc')).agents.map((a) => a.name)).toEqual(['w']);
  });

  /** An add_agent stored before the rule existed (or written to the store by anything else). */
  async function storeHostileAddAgent(swarm: string): Promise<void> {
    const [irAgent] = configToState({ name: swarm, agents: [bwrapAgent('esc', { skills: [path.join(h.home, 'tmux')] })] as never }).agents;
    await h.engine.store.appendOverlayEvent(swarm, 'add_agent', irAgent as unknown as Record<string, unknown>, new Date().toISOString());
  }

  it('an overlay replay at swarm start plans the replayed agent: hostile skills are refused', async () => {
    const config = { name: 'ov', agents: [mockAgent('a')] };
    await h.engine.startSwarm({ config });
    await h.engine.stopSwarm('ov');
    await storeHostileAddAgent('ov');
    expect(plain(await refusal(EngineError, h.engine.startSwarm({ config })))).toEqual({
      code: 'unsafe_bind',
      details: { agent: 'esc', path: path.join(h.home, 'tmux') },
    });
  });

  it('recovery plans the replayed agent: hostile skills leave it failed, never started', async () => {
    await h.engine.startSwarm({ config: { name: 'rc', agents: [mockAgent('a')] } });
    await storeHostileAddAgent('rc');
    await h.engine.close(); // crash: the swarm stays `running` in the store
    h.engine = await h.open();
    const esc = await waitFor(async () => (await h.engine.getSwarm('rc')).agents.find((a) => a.name === 'esc'), 'recovered agent list');
    expect(esc.state).toBe('failed');
    expect((await h.engine.getSwarm('rc')).agents.find((a) => a.name === 'a')?.state).not.toBe('failed');
  });
});
