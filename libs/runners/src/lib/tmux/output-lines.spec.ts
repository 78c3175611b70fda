import { OUTPUT_LINE_MAX_CHARS, OutputLineSplitter, stripTerminalEscapes } from './output-lines';

describe('pane output lines', () => {
  it('splits on LF across chunks, drops CR and escapes, keeps UTF-8 split across chunks', () => {
    const lines: string[] = [];
    const s = new OutputLineSplitter((l) => lines.push(l));
    const euro = Buffer.from('€');
    s.push(Buffer.concat([Buffer.from('\x1b[1mhel'), euro.subarray(0, 1)]));
    s.push(Buffer.concat([euro.subarray(1), Buffer.from('lo\x1b[0m\r\nsecond')]));
    s.push(Buffer.from(' line\r\n\r\n'));
    s.push(Buffer.from('tail'));
    s.flush();
    expect(lines).toEqual(['hel€lo', 'second line', 'tail']);
  });

  it('cuts an endless line into bounded pieces', () => {
    const lines: string[] = [];
    const s = new OutputLineSplitter((l) => lines.push(l));
    s.push(Buffer.from('x'.repeat(OUTPUT_LINE_MAX_CHARS * 2 + 5)));
    expect(lines).toEqual(['x'.repeat(OUTPUT_LINE_MAX_CHARS), 'x'.repeat(OUTPUT_LINE_MAX_CHARS)]);
  });

  it.each([
    ['CSI', 'a\x1b[2J\x1b[?2004hb', 'ab'],
    ['OSC title (BEL)', '\x1b]0;title\x07x', 'x'],
    ['OSC (ST)', '\x1b]52;c;ZZ\x1b\\x', 'x'],
    ['controls', 'a\x00\x07b\tc', 'ab\tc'],
  ])('strips %s', (_l, input, expected) => {
    expect(stripTerminalEscapes(input)).toBe(expected);
  });
});
