import { chownSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerHandle } from '../../src/lib/port';
import { createLocalRunner } from '../../src/index';
import { agentIdentityOf } from '../../src/lib/identity/agent-identity';
import { waitFor } from '../tmux/tmux-support';
import { clientUnderTest } from './real-client-support';
import { clientEnv, clientSpec, makePaneWorld, paneTurn, seedClientHome, type PaneWorld } from './pane-support';

jest.setTimeout(90_000);

const codex = clientUnderTest('codex');

// Codex in a local pty took the runner's text and Enter as one typed burst and never submitted the turn: the
// paste is now bracketed and Enter follows once Codex shows it.
describe('the published Codex in a local pty', () => {
  let world: PaneWorld;
  let handle: RunnerHandle | undefined;
  beforeAll(async () => {
    world = await makePaneWorld('pty-codex');
  });
  afterAll(async () => {
    await handle?.stop({ graceMs: 500 });
    await world.cleanup();
  });

  (('skip' in codex ? it.skip : it) as jest.It)('submits a turn delivered right after its start, and its screen can be read', async () => {
    if ('skip' in codex) return;
    const workspace = world.workspace('codex-pty');
    await seedClientHome(world, 'codex', 'sw', 'codex-pty', workspace);
    const spec = clientSpec(world, 'codex', codex.client.binary, {
      agent: 'codex-pty',
      backend: 'local',
      workspace,
      env: clientEnv('codex', world.llm.url, world.workspace('codex-pty-tmp')),
    });
    const turnDir = path.join(workspace, '.genswarms', 'turns', 'tpty');
    mkdirSync(turnDir, { recursive: true, mode: 0o700 });
    const ids = agentIdentityOf(world.ctx);
    for (const dir of [path.dirname(path.dirname(turnDir)), path.dirname(turnDir), turnDir]) chownSync(dir, ids.uid, ids.gid);
    const runner = createLocalRunner();
    const started = Date.now();
    handle = await runner.start(runner.plan(spec, world.ctx), world.ctx);
    await handle.deliver(paneTurn(`${workspace}/.genswarms/turns`, 'tpty'));
    const done = path.join(turnDir, 'done.json');
    await waitFor(() => (existsSync(done) ? true : undefined), 'done.json', { timeoutMs: 60_000 });
    console.info(`codex local pty: receipt after ${Date.now() - started} ms`);
    expect(JSON.parse(readFileSync(done, 'utf8'))).toEqual({ v: 1, turn: 'tpty', status: 'ok' });
    await waitFor(
      async () => ((await handle?.captureScreen?.())?.some((l) => l.includes('mock: turn tpty done')) ? true : undefined),
      'the final message on its screen',
    );
  });
});
