import { ControlParser, decodeOctalEscapes, type ControlBlock } from './control-protocol';

function collect(): { parser: ControlParser; blocks: ControlBlock[]; output: Array<[string, Buffer]>; notes: string[]; exits: string[] } {
  const blocks: ControlBlock[] = [];
  const output: Array<[string, Buffer]> = [];
  const notes: string[] = [];
  const exits: string[] = [];
  const parser = new ControlParser({
    block: (b) => blocks.push(b),
    output: (p, d) => output.push([p, d]),
    notification: (n, a) => notes.push(`${n}|${a}`),
    exit: (r) => exits.push(r),
  });
  return { parser, blocks, output, notes, exits };
}

describe('tmux control protocol', () => {
  it.each([
    ['plain', 'abc', 'abc'],
    ['CR LF', 'a\\015\\012', 'a\r\n'],
    ['backslash', '\\134x', '\\x'],
    ['ESC', '\\033[0m', '\x1b[0m'],
    ['not octal', '\\9\\08', '\\9\\08'],
    ['truncated', 'a\\01', 'a\\01'],
  ])('decodes octal escapes (%s)', (_l, input, expected) => {
    expect(decodeOctalEscapes(Buffer.from(input, 'latin1'))).toEqual(Buffer.from(expected, 'latin1'));
  });

  it('parses blocks split across chunks and ignores command-line blocks (flags 0)', () => {
    const c = collect();
    const text = '%begin 1 10 0\n%end 1 10 0\n%begin 2 11 1\nline one\nline two\n%end 2 11 1\n%begin 3 12 1\nbad\n%error 3 12 1\n';
    for (const ch of Buffer.from(text)) c.parser.push(Buffer.from([ch]));
    expect(c.blocks).toEqual([
      { number: 10, flags: 0, ok: true, lines: [] },
      { number: 11, flags: 1, ok: true, lines: ['line one', 'line two'] },
      { number: 12, flags: 1, ok: false, lines: ['bad'] },
    ]);
  });

  it('does not let output inside a block that looks like %end (other number) close it', () => {
    const c = collect();
    c.parser.push(Buffer.from('%begin 5 7 1\n%end 5 8 1\n%output %1 x\n%end 5 7 1\n'));
    expect(c.blocks).toEqual([{ number: 7, flags: 1, ok: true, lines: ['%end 5 8 1', '%output %1 x'] }]);
    expect(c.output).toEqual([]);
  });

  it('decodes %output per pane with raw high bytes', () => {
    const c = collect();
    c.parser.push(Buffer.concat([Buffer.from('%output %3 h\\303\\251 '), Buffer.from([0xc3, 0xa9]), Buffer.from('\\015\\012\n')]));
    expect(c.output).toEqual([['%3', Buffer.from('hé é\r\n', 'utf8')]]);
  });

  it.each(['%output 3 x', '%output %x y', '%output %3'])('ignores malformed output %j', (line) => {
    const c = collect();
    c.parser.push(Buffer.from(`${line}\n`));
    expect(c.output).toEqual([]);
  });

  it('reports notifications and %exit', () => {
    const c = collect();
    c.parser.push(Buffer.from('%window-add @1\n%sessions-changed\n%exit detached\n'));
    expect(c.notes).toEqual(['window-add|@1', 'sessions-changed|']);
    expect(c.exits).toEqual(['detached']);
  });
});
