import { buildTuiTurnText, neutralizeControls } from './turn-text';

describe('TUI turn text (docs/messaging.md)', () => {
  it('is the header, the content, then the receipt instruction', () => {
    const text = buildTuiTurnText({
      turnId: 't1',
      seq: 7,
      from: '_operator',
      content: 'do $(x)\nnow',
      clientTurnsDir: '/workspace/.genswarms/turns',
    });
    expect(text).toBe(
      '[genswarms] turn t1 — message 7 from _operator:\n' +
        'do $(x)\nnow\n' +
        'When finished, write your reply to /workspace/.genswarms/turns/t1/reply.md, then write {"v":1,"turn":"t1","status":"ok"} to /workspace/.genswarms/turns/t1/done.json.',
    );
  });

  it.each([
    ['bracketed paste end', 'a\x1b[201~b', 'a\uFFFD[201~b'],
    ['carriage return', 'a\rb', 'a\uFFFDb'],
    ['NUL and BEL', '\0\x07', '\uFFFD\uFFFD'],
    ['C1 CSI', 'a\u009b1m', 'a\uFFFD1m'],
    ['kept LF and TAB', 'a\n\tb', 'a\n\tb'],
    ['tmux key names', 'C-c Enter ; #{pane_id}', 'C-c Enter ; #{pane_id}'],
  ])('neutralizes terminal controls (%s)', (_l, input, expected) => {
    expect(neutralizeControls(input)).toBe(expected);
  });
});
