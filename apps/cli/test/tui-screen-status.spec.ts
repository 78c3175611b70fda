import { attentionLines, screenTail } from '../src/view/attention-lines';
import type { AgentStatusView } from '../src/view/agent-table';
import { cli, cliLive } from './support';
import type { FixtureServer, RecordedRequest, Reply } from './fixture-server';
import { startFixtureServer } from './fixture-server';

const HELD: AgentStatusView = {
  name: 'coder',
  state: 'needs_attention',
  needs_attention: {
    reason: 'client_prompt_blocked',
    turn: null,
    details: {
      dialog: 'claude_trust_folder',
      stage: 'not_ready',
      last_lines: [' Accessing workspace:', ' ❯ No, exit', '   Yes, I trust this folder'],
    },
  },
};

// The operator sees why a TUI agent is stuck and what its client's screen showed; a TUI agent's `logs` is its screen.
describe('a TUI agent stuck on its client, as the CLI shows it', () => {
  it('names the dialog, says what to do, and prints the screen lines', () => {
    expect(attentionLines([HELD])).toEqual([
      'coder: client_prompt_blocked: its client shows a dialog (claude_trust_folder); answer it in the pane (genswarms attach <swarm> <agent> --write), then genswarms resume, or restart the agent',
      '    │  Accessing workspace:',
      '    │  ❯ No, exit',
      '    │    Yes, I trust this folder',
    ]);
  });

  it('prints a failed client last screen, and nothing for agents without one', () => {
    const failed: AgentStatusView = { name: 'x', state: 'failed', failure: { code: 'process_exited', details: { last_lines: ['bye'] } } };
    expect(
      attentionLines([
        failed,
        { name: 'y', state: 'idle' },
        { name: 'z', state: 'needs_attention', needs_attention: { reason: 'receipt_symlink', turn: 't' } },
      ]),
    ).toEqual(['x: last screen of its client', '    │ bye']);
  });

  test.each<[string, unknown, string[]]>([
    ['escapes and C1 controls', ['\u001b]0;pwned\u0007title', 'x\u009b31m'], ['    │ ?]0;pwned?title', '    │ x?31m']],
    ['newlines inside a line', ['a\nb'], ['    │ a ⏎ b']],
    ['non-strings', [1, null, { a: 1 }, 'ok'], ['    │ ok']],
    ['not an array', { __proto__: ['x'] }, []],
    ['too many lines', Array.from({ length: 50 }, (_v, i) => `l${i}`), Array.from({ length: 20 }, (_v, i) => `    │ l${i + 30}`)],
  ])('neutralises hostile screen lines: %s', (_label, value, expected) => {
    expect(screenTail(value)).toEqual(expected);
  });
});

describe('genswarms logs and status for a TUI agent', () => {
  let server: FixtureServer;
  const router = (req: RecordedRequest): Reply => {
    const path = req.url.split('?')[0] ?? '';
    if (path.endsWith('/logs')) return { status: 200, body: { logs: [] } };
    if (path.endsWith('/screen'))
      return { status: 200, body: { screen: ['>_ OpenAI Codex (v0.169.0)', 'Pane is dead (status 123)\u001b[2J'] } };
    if (path === '/api/swarms/demo/agents/coder') return { status: 200, body: { ...HELD, backend: 'local', client: 'codex' } };
    if (path === '/api/swarms/demo')
      return {
        status: 200,
        body: {
          name: 'demo',
          status: 'running',
          started_at: null,
          agent_count: 1,
          object_count: 0,
          agents: [HELD],
          objects: [],
          topology: [],
        },
      };
    return { status: 404, body: { error: 'not_found', message: 'no' } };
  };
  beforeAll(async () => {
    server = await startFixtureServer(router);
  });
  afterAll(async () => server.close());

  it('logs: a TUI agent without output lines shows its screen (also a dead pane)', async () => {
    const r = await cli(['logs', 'demo', 'coder'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'the screen of coder (a TUI agent; follow it with genswarms attach):\n>_ OpenAI Codex (v0.169.0)\nPane is dead (status 123)?[2J\n',
    );
  });

  it('attach: a local TUI agent (a pty) shows its screen until interrupted, read-only', async () => {
    const run = cliLive(['attach', 'demo', 'coder'], { GENSWARMS_URL: server.url });
    await run.waitForStdout(/Pane is dead/);
    run.interrupt();
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('>_ OpenAI Codex (v0.169.0)\nPane is dead (status 123)?[2J\n');
    expect(r.stderr).toContain('the screen of demo/coder (local TUI agent, read-only; Ctrl-C to stop)');
    expect((await cli(['attach', 'demo', 'coder', '--write'], { GENSWARMS_URL: server.url })).code).toBe(2);
  });

  it('status <swarm>: the held agent with its dialog and last lines under the table', async () => {
    const r = await cli(['status', 'demo'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('client_prompt_blocked: its client shows a dialog (claude_trust_folder)');
    expect(r.stdout).toContain('    │    Yes, I trust this folder\n');
  });
});
