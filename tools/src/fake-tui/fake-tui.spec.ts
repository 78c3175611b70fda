import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type IPty } from 'node-pty';
import { FAKE_TUI_BIN, FAKE_TUI_REPLY_PREFIX, parseFakeTuiReport } from './fake-tui';
import { waitFor } from '@genswarms/test-kit';

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** The docs/messaging.md text, as tmux pastes it (LF → CR) inside a bracketed paste, then Enter. */
function pasteTurn(turnsDir: string, turn: string, content: string): string {
  const text = [
    `[genswarms] turn ${turn} — message 1 from _operator:`,
    content,
    `When finished, write your reply to ${turnsDir}/${turn}/reply.md, then write {"v":1,"turn":"${turn}","status":"ok"} to ${turnsDir}/${turn}/done.json.`,
  ].join('\n');
  return `${PASTE_START}${text.replace(/\n/g, '\r')}${PASTE_END}\r`;
}

describe('fake-tui (in a real pty)', () => {
  let dir = '';
  let pty: IPty | undefined;
  let screen = '';

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fake-tui-'));
    screen = '';
    pty = spawn(process.execPath, [FAKE_TUI_BIN, '--report', join(dir, 'report.json'), 'x y'], {
      cols: 80,
      rows: 24,
      cwd: dir,
      env: { PATH: '/usr/bin:/bin', TERM: 'xterm-256color', GS_NAME_ONLY: 'value-not-reported' },
    });
    pty.onData((d) => (screen += d));
    await waitFor(() => (screen.includes('fake-tui ready') ? true : undefined), 'ready');
  });
  afterEach(async () => {
    pty?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  const report = (): ReturnType<typeof parseFakeTuiReport> => parseFakeTuiReport(readFileSync(join(dir, 'report.json'), 'utf8'));

  it('is executable and asks for bracketed paste', () => {
    expect(statSync(FAKE_TUI_BIN).mode & 0o111).not.toBe(0);
    expect(screen).toContain('\x1b[?2004h');
  });

  it('reports its argv and env names, never env values', () => {
    const r = report();
    expect(r).toMatchObject({ kind: 'ok', value: { argv: ['--report', join(dir, 'report.json'), 'x y'] } });
    expect(r.kind === 'ok' && r.value.envNames).toEqual(expect.arrayContaining(['GS_NAME_ONLY', 'PATH']));
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).not.toContain('value-not-reported');
  });

  it.each([
    ['plain', 'hello'],
    ['tmux key names', 'C-c Enter C-d Escape'],
    ['shell syntax', '$(id) `id` ; | && #{pane_id}'],
    ['multi-line', 'one\ntwo\n\nfour'],
  ])('answers a pasted turn (%s) with reply.md then done.json', async (_l, content) => {
    pty?.write(pasteTurn(join(dir, 'turns'), 't1', content));
    const done = join(dir, 'turns', 't1', 'done.json');
    await waitFor(() => (existsSync(done) ? true : undefined), 'done.json');
    expect(JSON.parse(readFileSync(done, 'utf8'))).toEqual({ v: 1, turn: 't1', status: 'ok' });
    expect(readFileSync(join(dir, 'turns', 't1', 'reply.md'), 'utf8')).toBe(`${FAKE_TUI_REPLY_PREFIX}${content}`);
  });

  it('handles a paste split across writes and ignores text that is not a turn', async () => {
    const data = pasteTurn(join(dir, 'turns'), 't2', 'split');
    for (let i = 0; i < data.length; i += 7) pty?.write(data.slice(i, i + 7));
    pty?.write('just typing\r');
    await waitFor(() => (existsSync(join(dir, 'turns', 't2', 'done.json')) ? true : undefined), 'done.json');
    await waitFor(() => {
      const r = report();
      return r.kind === 'ok' && r.value.submissions.length === 2 ? r.value.submissions : undefined;
    }, 'second submission');
    expect(existsSync(join(dir, 'turns', 'just typing'))).toBe(false);
  });

  it.each(['{}', 'nope', '{"argv":[],"envNames":[],"submissions":[],"extra":1}'])('refuses a malformed report %j', (text) => {
    expect(parseFakeTuiReport(text).kind).toBe('invalid');
  });
});
