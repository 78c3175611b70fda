import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerHandle } from '../../src/lib/port';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { describeIfBinaries, FAKE_TUI, makeTestEnv, NODE, SANDBOX_FIXTURES, tmuxSpec, waitFor, type TmuxTestEnv } from './tmux-support';

const PWNED = `/tmp/pwned-${randomBytes(6).toString('hex')}`;

/** Contents that must arrive as text: tmux key names, tmux and shell syntax, newlines. */
const CONTENTS: ReadonlyArray<readonly [string, string]> = [
  ['tmux key names', 'press C-c then Enter and Escape, C-d, M-x'],
  ['separators', 'a ; b \\; c ;; d'],
  ['tmux formats', '#{pane_id} #(id) #[fg=red] ##'],
  ['shell substitution', `$(touch ${PWNED}) \`touch ${PWNED}\` $HOME ~`],
  ['newlines', 'line one\nline two\n\nline four'],
  ['quotes and unicode', `it's "fine" — ünï 🦀`],
];

interface FakeTuiReport {
  argv: string[];
  envNames: string[];
  submissions: string[];
}

describe.each(['none', 'bwrap'] as const)('tmux runner %s: TUI delivery to fake-tui', (runnerKind) => {
  describeIfBinaries(runnerKind === 'bwrap' ? ['tmux', 'xargs', 'bwrap'] : ['tmux', 'xargs'])('with real tmux', () => {
    let env: TmuxTestEnv;
    let handle: RunnerHandle;
    const runner = createTmuxRunner();
    const lines: string[] = [];
    let seq = 0;

    beforeAll(async () => {
      env = await makeTestEnv(`deliver-${runnerKind}`);
      const sandboxed = runnerKind === 'bwrap';
      const bin = sandboxed ? `${SANDBOX_FIXTURES}/fake-tui.js` : FAKE_TUI;
      const report = sandboxed ? '/workspace/fake-tui.json' : path.join(env.workspace, 'fake-tui.json');
      const spec: AgentLaunchSpec = {
        ...tmuxSpec(env, 'tui', [NODE, bin, '--report', report, '$(id)']),
        runner: runnerKind,
        config: sandboxed ? { extra_ro_binds: [[path.dirname(FAKE_TUI), SANDBOX_FIXTURES]] } : {},
      };
      handle = await runner.start(runner.plan(spec, env.ctx), env.ctx);
      handle.onOutput((_stream, line) => lines.push(line));
      await waitFor(() => (lines.some((l) => l.includes('fake-tui ready')) ? true : undefined), 'fake-tui ready');
    });
    afterAll(async () => {
      await handle.stop({ graceMs: 500 });
      await (await runner.server(env.ctx)).kill();
      await env.cleanup();
    });

    async function readReport(): Promise<FakeTuiReport> {
      return JSON.parse(await fsp.readFile(path.join(env.workspace, 'fake-tui.json'), 'utf8')) as FakeTuiReport;
    }

    it('starts fake-tui with its argv and the built env names', async () => {
      const report = await readReport();
      expect(report.argv).toEqual(['--report', expect.any(String), '$(id)']);
      expect(report.envNames).toEqual(expect.arrayContaining(['GENSWARMS_TURNS_DIR', 'TERM', 'LANG', 'HOME']));
    });

    it.each(CONTENTS)('pastes %s verbatim and fake-tui writes the receipt', async (_label, content) => {
      const turnId = `turn-${runnerKind}-${++seq}`;
      const clientTurnsDir = runnerKind === 'bwrap' ? '/workspace/.genswarms/turns' : path.join(env.workspace, '.genswarms', 'turns');
      await handle.deliver({ turnId, seq, from: 'planner', content, clientTurnsDir });
      const turnDir = path.join(env.workspace, '.genswarms', 'turns', turnId);
      const done = await waitFor(
        async () => (existsSync(path.join(turnDir, 'done.json')) ? await fsp.readFile(path.join(turnDir, 'done.json'), 'utf8') : undefined),
        'done.json',
      );
      expect(JSON.parse(done)).toEqual({ v: 1, turn: turnId, status: 'ok' });
      expect(await fsp.readFile(path.join(turnDir, 'reply.md'), 'utf8')).toBe(`fake-tui: ${content}`);
      const report = await readReport();
      expect(report.submissions.at(-1)).toContain(`\n${content}\nWhen finished`);
      expect(existsSync(PWNED)).toBe(false);
    });

    it('neutralizes an escape that would end the bracketed paste early', async () => {
      const turnId = `turn-${runnerKind}-esc`;
      const clientTurnsDir = runnerKind === 'bwrap' ? '/workspace/.genswarms/turns' : path.join(env.workspace, '.genswarms', 'turns');
      await handle.deliver({ turnId, seq: 99, from: 'planner', content: 'before\x1b[201~\rinjected', clientTurnsDir });
      const reply = path.join(env.workspace, '.genswarms', 'turns', turnId, 'reply.md');
      await waitFor(() => (existsSync(reply) ? true : undefined), 'reply.md');
      expect(await fsp.readFile(reply, 'utf8')).toBe('fake-tui: before\uFFFD[201~\uFFFDinjected');
      const report = await readReport();
      expect(report.submissions.filter((s) => s.includes('injected'))).toHaveLength(1); // one submission, not two
    });

    it('leaves no buffer file behind', () => {
      expect(readdirSync(path.join(env.home, 'tmux', 'buffers'))).toEqual([]);
    });

    it('streams the pane output as lines', async () => {
      // fake-tui prints after writing done.json, so the line may still be on its way.
      const line = await waitFor(() => lines.find((l) => l.startsWith(`fake-tui: answered turn turn-${runnerKind}-1`)), 'answered line');
      expect(line).toBe(`fake-tui: answered turn turn-${runnerKind}-1`);
    });
  });
});
