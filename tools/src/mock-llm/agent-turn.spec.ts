import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReceiptCommand, decideAgentAnswer, parseTurnTask, pickShellTool } from './agent-turn';

/** The TUI delivery text of docs/messaging.md (the format `formatTuiDelivery` produces). */
function delivery(turn: string, turnDir: string, content: string): string {
  return [
    `[genswarms] turn ${turn} — message 1 from _operator:`,
    content,
    `When finished, write your reply to ${turnDir}/reply.md, then write {"v":1,"turn":"${turn}","status":"ok"} to ${turnDir}/done.json.`,
  ].join('\n');
}

describe('parseTurnTask', () => {
  it('reads the turn id, the turn directory, the task text and a SEND_TO marker', () => {
    const text = delivery('t-1', '/ws/a/.genswarms/turns/t-1', 'line one\nSEND_TO:critic:please review');
    expect(parseTurnTask(`<system-reminder>x</system-reminder>\n${text}`)).toEqual({
      turnId: 't-1',
      turnDir: '/ws/a/.genswarms/turns/t-1',
      content: 'line one\nSEND_TO:critic:please review',
      sendTo: { to: 'critic', content: 'please review' },
    });
  });

  test.each([
    ['no header', 'write your reply to /ws/.genswarms/turns/t/reply.md, then'],
    ['a relative turn directory', delivery('t', 'ws/.genswarms/turns/t', 'x')],
    ['a `..` component', delivery('t', '/ws/../etc/.genswarms/turns/t', 'x')],
    ['a quote in the path', delivery('t', "/ws/it's/.genswarms/turns/t", 'x')],
    ['command substitution in the path', delivery('t', '/ws/$(id)/.genswarms/turns/t', 'x')],
    ['a directory of another turn', delivery('t', '/ws/.genswarms/turns/other', 'x')],
    ['a directory outside .genswarms/turns', delivery('t', '/etc/cron.d/t', 'x')],
    ['an upper-case turn id', delivery('T', '/ws/.genswarms/turns/T', 'x')],
  ])('refuses a prompt with %s', (_name, prompt) => {
    expect(parseTurnTask(prompt)).toBeNull();
  });

  test.each([
    ['an agent name that does not start with a letter', 'SEND_TO:1bad:x'],
    ['an empty message', 'SEND_TO:critic:'],
    ['a name with a slash', 'SEND_TO:../x:y'],
  ])('ignores SEND_TO with %s', (_name, marker) => {
    expect(parseTurnTask(delivery('t', '/ws/.genswarms/turns/t', marker))?.sendTo).toBeUndefined();
  });
});

describe('buildReceiptCommand, run by a real /bin/sh', () => {
  let base = '';
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'mock-turn-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const hostile = [
    ['plain text', 'summarise notes.md'],
    ['shell metacharacters', `it's $(touch pwned) \`touch pwned\` ; rm -rf / "x" \\ %s`],
    ['unicode', 'héllo — 世界 🚀'],
  ];
  test.each(hostile)('writes reply.md then done.json, verbatim, for %s', (_name, content) => {
    const dir = join(base, 'ws', '.genswarms', 'turns', 't1');
    mkdirSync(dir, { recursive: true });
    const task = parseTurnTask(delivery('t1', dir, `${content}\nSEND_TO:critic:${content}`));
    if (task === null) throw new Error('expected a task');
    const run = spawnSync('/bin/sh', ['-c', buildReceiptCommand(task)], { cwd: base, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, 'reply.md'), 'utf8')).toBe(`mock reply to turn t1: ${content}\nSEND_TO:critic:${content}\n`);
    expect(JSON.parse(readFileSync(join(dir, 'done.json'), 'utf8'))).toEqual({ v: 1, turn: 't1', status: 'ok' });
    expect(readdirSync(dir).sort()).toEqual(['done.json', 'reply.md']);
    const outbox = join(base, 'ws', '.outbox');
    expect(readdirSync(outbox)).toEqual(['mock-t1.json']);
    expect(JSON.parse(readFileSync(join(outbox, 'mock-t1.json'), 'utf8'))).toEqual({ to: 'critic', content });
    expect(readdirSync(base)).toEqual(['ws']); // nothing ran from the content (no `pwned`)
  });
});

describe('decideAgentAnswer', () => {
  const task = delivery('t1', '/ws/.genswarms/turns/t1', 'do it');
  const echo = (prompt: string) => ({ kind: 'text' as const, text: `echo ${prompt}` });

  test.each([
    [['exec_command', 'write_stdin'], 'exec_command', 'cmd'],
    [['Agent', 'Bash', 'Edit'], 'Bash', 'command'],
    [['bash', 'edit'], 'bash', 'command'],
  ])('calls the first known shell tool of %j', (tools, name, argument) => {
    const answer = decideAgentAnswer({ userTexts: [task], endsWithToolResult: false, toolNames: tools }, echo);
    expect(answer).toMatchObject({ kind: 'tool_call', name });
    expect(answer.kind === 'tool_call' ? typeof answer.arguments[argument] : undefined).toBe('string');
  });

  it('answers the final text once the tool result is the newest input', () => {
    expect(decideAgentAnswer({ userTexts: [task], endsWithToolResult: true, toolNames: ['Bash'] }, echo)).toEqual({
      kind: 'text',
      text: 'mock: turn t1 done',
    });
  });

  test.each([
    ['no shell tool is offered', { userTexts: [task], endsWithToolResult: false, toolNames: ['Read'] }],
    ['the prompt names no turn', { userTexts: ['hello'], endsWithToolResult: false, toolNames: ['Bash'] }],
    ['a tool is named __proto__', { userTexts: [task], endsWithToolResult: false, toolNames: ['__proto__', 'constructor'] }],
  ])('falls back to the script when %s', (_name, conversation) => {
    expect(decideAgentAnswer(conversation, echo).kind).toBe('text');
  });

  it('knows no tool by an inherited name', () => {
    expect(pickShellTool(['toString', 'hasOwnProperty'])).toBeNull();
  });
});
