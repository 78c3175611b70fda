import { existsSync, mkdtempSync, promises as fsp, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { LaunchPlan, RunnerHandle } from '../../src/lib/port';
import { startPtyClient } from '../../src/lib/local/pty-client';
import { FAKE_TUI, NODE, waitFor } from '../tmux/tmux-support';
import { FAKE_TUI_SCREEN } from './fake-tui-screen';

/** A plan for a pty client in `workspace` (what the local runner would have planned), `env` given as is. */
function ptyPlan(workspace: string, env: Record<string, string>): LaunchPlan {
  return {
    spec: {
      swarm: 'sw',
      agent: 'pty',
      backend: 'local',
      client: 'codex',
      network: 'open',
      workspace,
      skills: [],
      unsafeBypass: false,
      topologyTargets: [],
      config: {},
      backendOpts: {},
    },
    sessionId: 'pty-session',
    stateDir: workspace,
    clientArgv: [],
    env: { PATH: '/usr/bin:/bin', TERM: 'xterm-256color', ...env },
    mounts: [],
    notices: [],
  };
}

// A TUI client in a local pty: its screen is kept by a headless terminal, so screen rules, `logs` and the details
// see it as in tmux; the paste is bracketed and its Enter follows the echo.
describe('local pty: a TUI client driven by its screen', () => {
  let dir: string;
  let handle: RunnerHandle | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gs-pty-screen-'));
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 200 });
    handle = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const turn = (turnId: string): Parameters<RunnerHandle['deliver']>[0] => ({
    turnId,
    seq: 1,
    from: '_operator',
    content: 'one\ntwo',
    clientTurnsDir: path.join(dir, '.genswarms', 'turns'),
  });
  const fakeTui = (options: readonly string[]): [string, string[]] => [
    NODE,
    [FAKE_TUI, '--report', path.join(dir, 'report.json'), ...options],
  ];

  it('submits a turn to a client that reads an Enter inside a burst as a newline (as Codex does): Enter comes after the echo', async () => {
    const [file, args] = fakeTui(['--prompt-after-ms', '500', '--enter-in-burst-is-newline']);
    handle = startPtyClient(ptyPlan(dir, {}), file, args, { screen: FAKE_TUI_SCREEN });
    await handle.deliver(turn('pty-1'));
    const done = path.join(dir, '.genswarms', 'turns', 'pty-1', 'done.json');
    await waitFor(() => (existsSync(done) ? true : undefined), 'done.json', { timeoutMs: 5000 });
    const report = JSON.parse(await fsp.readFile(path.join(dir, 'report.json'), 'utf8')) as { submissions: string[] };
    expect(report.submissions).toEqual([
      expect.stringMatching(/^\[genswarms\] turn pty-1 — message 1 from _operator:\none\ntwo\nWhen finished/),
    ]);
  });

  it('keeps the screen as plain text, readable after the client exited, with secret values replaced', async () => {
    const key = 'sk-test-0123456789abcdef';
    const script =
      'process.stdout.write("\\x1b[2J\\x1b[Hkey=" + process.env.GENSWARMS_LLM_API_KEY + "\\r\\n\\x1b[1mbold\\x1b[0m line\\r\\n"); setTimeout(() => process.exit(4), 300)';
    handle = startPtyClient(ptyPlan(dir, { GENSWARMS_LLM_API_KEY: key }), NODE, ['-e', script]);
    await new Promise<void>((resolve) => handle?.onExit(() => resolve()));
    const screen = await handle.captureScreen?.();
    expect(screen).toEqual(['key=[REDACTED]', 'bold line']);
  });
});
