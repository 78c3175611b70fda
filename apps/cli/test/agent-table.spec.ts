import { PassThrough } from 'node:stream';
import { agentTable, statesText, swarmDetailLines, swarmTable } from '../src/view/agent-table';
import type { AgentStatusView } from '../src/view/agent-table';
import { formatAge } from '../src/view/age';
import { terminalOf } from '../src/view/terminal';
import type { Terminal } from '../src/view/terminal';

// The table the operator reads: hostile text from the server never reaches the terminal as control characters,
// and on a TTY no line is wider than the terminal, whatever it holds.
const NOW = Date.parse('2026-12-01T12:00:00Z');
const PIPE: Terminal = { tty: false, columns: undefined, color: false };
const tty = (columns: number, color = true): Terminal => ({ tty: true, columns, color });
// eslint-disable-next-line no-control-regex -- SGR sequences are what colour adds
const visible = (line: string): string => line.replace(/\u001b\[[0-9;]*m/g, '');

const agent = (over: Partial<AgentStatusView> = {}): AgentStatusView => ({
  name: 'writer',
  state: 'busy',
  backend: 'tmux',
  client: 'codex',
  network: 'none',
  inbox_size: 3,
  turn: '5clahylyq2ub6t4kmsfpfvbxga',
  turn_started_at: '2026-12-01T11:58:30Z',
  needs_attention: null,
  last_activity: '2026-12-01T11:59:55Z',
  ...over,
});

describe('the agent table', () => {
  it('piped: plain, whole lines, the turn as id prefix and age', () => {
    expect(agentTable(PIPE, [agent(), agent({ name: 'critic', state: 'idle', turn: null, inbox_size: 0 })], NOW)).toEqual([
      'AGENT   STATE  BACKEND     NETWORK  TURN          INBOX  ATTENTION  ACTIVE',
      'writer  busy   tmux/codex  none     5clahyly… 1m      3  -          5s ago',
      'critic  idle   tmux/codex  none     -                 0  -          5s ago',
    ]);
  });

  it('says an ssh agent runs without host-key verification (silently_accept_hosts)', () => {
    const [, row] = agentTable(PIPE, [agent({ backend: 'ssh', client: 'genswarms-agent', host_key_verified: false })], NOW);
    expect(row).toContain('host key not verified');
    expect(agentTable(PIPE, [agent({ backend: 'ssh', host_key_verified: true })], NOW)[1]).not.toContain('host key');
  });

  test.each<[string, Partial<AgentStatusView>]>([
    ['an escape in the attention reason', { needs_attention: { reason: '\u001b]0;pwned\u0007receipt_symlink' } }],
    ['a newline and C1 control in the backend', { backend: 'tmux\n\u009b31m' }],
    ['a non-string state', { state: { evil: true } as unknown as string }],
    ['a huge name', { name: 'x'.repeat(10000) }],
    ['__proto__ as a name', { name: '__proto__' }],
    ['a negative inbox and a garbage date', { inbox_size: -1, last_activity: 'yesterday', turn_started_at: 'soon' }],
  ])('%s never prints a control character, piped or on a TTY', (_what, over) => {
    for (const term of [PIPE, tty(80, false)])
      for (const line of agentTable(term, [agent(over)], NOW)) {
        // eslint-disable-next-line no-control-regex -- the assertion is that none is printed
        expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      }
  });

  test.each([20, 40, 60, 80, 120, 200])('on a TTY of %i columns no line is wider than the terminal', (columns) => {
    const rows = [agent({ name: 'n'.repeat(64), needs_attention: { reason: 'receipt_rejected', turn: 't' } }), agent({ state: 'failed' })];
    for (const line of agentTable(tty(columns), rows, NOW)) expect(visible(line).length).toBeLessThanOrEqual(columns);
  });

  it('colours the state on a TTY with colour, only the text (padding stays outside)', () => {
    const [, row] = agentTable(tty(200), [agent({ state: 'idle' })], NOW);
    expect(row).toContain('\u001b[32midle\u001b[0m   ');
  });
});

describe('a swarm with a failed agent', () => {
  it('shows the failure code in ATTENTION and the server sentence under the table', () => {
    const failed = agent({
      name: 'coder',
      state: 'failed',
      turn: null,
      failure: {
        code: 'binary_missing',
        message: 'codex not found on PATH (/usr/bin:/bin); install it or set client.command',
        details: {},
      },
    });
    const lines = swarmDetailLines(PIPE, { name: 'demo', status: 'running', object_count: 0, agents: [failed] }, NOW);
    expect(lines[0]).toBe('demo: running, 1 agents (failed 1), 0 objects');
    expect(lines[2]).toMatch(/^coder +failed +tmux\/codex +none +- +3 +binary_missing +5s ago$/);
    expect(lines.slice(3)).toEqual([
      '',
      'coder: binary_missing: codex not found on PATH (/usr/bin:/bin); install it or set client.command',
    ]);
  });
});

describe('the swarm list', () => {
  it('counts agents by state in a fixed order and ignores junk', () => {
    expect(statesText({ failed: 1, idle: 3, busy: 0, weird: 'x', starting: 2 })).toBe('idle 3, starting 2, failed 1');
    expect(statesText(null)).toBe('-');
    expect(swarmTable(PIPE, [{ name: 'demo', status: 'running', agent_count: 4, object_count: 0, agents_by_state: { idle: 4 } }])).toEqual([
      'SWARM  STATUS   AGENTS  OBJECTS  AGENT STATES',
      'demo   running       4        0  idle 4',
    ]);
  });
});

describe('terminal detection and ages', () => {
  test.each<[Record<string, unknown>, Record<string, string>, Terminal]>([
    [{}, {}, { tty: false, columns: undefined, color: false }],
    [{ isTTY: true, columns: 100 }, {}, { tty: true, columns: 100, color: true }],
    [{ isTTY: true }, {}, { tty: true, columns: 80, color: true }],
    [{ isTTY: true, columns: 100 }, { NO_COLOR: '1' }, { tty: true, columns: 100, color: false }],
    [{ isTTY: true, columns: 100 }, { TERM: 'dumb' }, { tty: true, columns: 100, color: false }],
  ])('stream %j with env %j → %j', (props, env, expected) => {
    expect(terminalOf(Object.assign(new PassThrough(), props), env)).toEqual(expected);
  });

  test.each<[unknown, string]>([
    ['2026-12-01T11:59:48Z', '12s'],
    ['2026-12-01T11:56:00Z', '4m'],
    ['2026-12-01T09:00:00Z', '3h'],
    ['2026-11-28T12:00:00Z', '3d'],
    ['2026-12-01T12:00:09Z', '0s'],
    ['not a date', '-'],
    [null, '-'],
  ])('age of %j is %s', (iso, expected) => {
    expect(formatAge(iso, NOW)).toBe(expected);
  });
});
