import fc from 'fast-check';
import { extractMarkers } from './markers';

/** The docs/messaging.md grammar as one global regex (quadratic on hostile input; the reference for small ones). */
const REFERENCE_RE = /<<SWARM_MSG:(?:TO=([a-zA-Z][a-zA-Z0-9_-]{0,63})|BROADCAST):START>>(?:\r?\n)?([\s\S]*?)<<SWARM_MSG:END>>/g;

function reference(text: string): ReturnType<typeof extractMarkers> {
  const blocks = [...text.matchAll(REFERENCE_RE)].flatMap((m) => {
    const content = (m[2] ?? '').trim();
    if (content === '') return [];
    return [m[1] === undefined ? { kind: 'broadcast' as const, content } : { kind: 'to' as const, to: m[1], content }];
  });
  return { blocks, replyText: text.replace(REFERENCE_RE, '').trim() };
}

const TOKENS = [
  '<<SWARM_MSG:TO=a:START>>',
  '<<SWARM_MSG:TO=web-bot:START>>',
  '<<SWARM_MSG:BROADCAST:START>>',
  '<<SWARM_MSG:END>>',
  '<<SWARM_MSG:',
  'TO=1x:START>>',
  '<<SWARM_MSG:TO=',
  'END>>',
  '\n',
  '\r\n',
  ' ',
  'x',
  '<<',
];

describe('extractMarkers', () => {
  it('extracts directed and broadcast blocks in order and leaves the reply text', () => {
    const text =
      'Intro\n<<SWARM_MSG:TO=web-bot:START>>\nhello bot\n<<SWARM_MSG:END>>\nmiddle\r\n<<SWARM_MSG:BROADCAST:START>>\r\nto all<<SWARM_MSG:END>> tail ';
    expect(extractMarkers(text)).toEqual({
      blocks: [
        { kind: 'to', to: 'web-bot', content: 'hello bot' },
        { kind: 'broadcast', content: 'to all' },
      ],
      replyText: 'Intro\n\nmiddle\r\n tail',
    });
  });

  it('is non-greedy: each body runs to the next END', () => {
    const text = '<<SWARM_MSG:TO=a:START>>one<<SWARM_MSG:END>>x<<SWARM_MSG:TO=b:START>>two<<SWARM_MSG:END>>';
    expect(extractMarkers(text).blocks).toEqual([
      { kind: 'to', to: 'a', content: 'one' },
      { kind: 'to', to: 'b', content: 'two' },
    ]);
    expect(extractMarkers(text).replyText).toBe('x');
  });

  test.each([
    ['empty body dropped', '<<SWARM_MSG:TO=a:START>>  \n <<SWARM_MSG:END>>', [], ''],
    [
      'name with a space is not a marker',
      '<<SWARM_MSG:TO=a b:START>>x<<SWARM_MSG:END>>',
      [],
      '<<SWARM_MSG:TO=a b:START>>x<<SWARM_MSG:END>>',
    ],
    [
      'name starting with a digit is not a marker',
      '<<SWARM_MSG:TO=1a:START>>x<<SWARM_MSG:END>>',
      [],
      '<<SWARM_MSG:TO=1a:START>>x<<SWARM_MSG:END>>',
    ],
    ['unterminated block stays text', '<<SWARM_MSG:TO=a:START>>x', [], '<<SWARM_MSG:TO=a:START>>x'],
    [
      'path traversal name is not a marker',
      '<<SWARM_MSG:TO=../x:START>>x<<SWARM_MSG:END>>',
      [],
      '<<SWARM_MSG:TO=../x:START>>x<<SWARM_MSG:END>>',
    ],
  ])('%s', (_name, text, blocks, replyText) => {
    expect(extractMarkers(text)).toEqual({ blocks, replyText });
  });

  it('keeps only one newline after START', () => {
    expect(extractMarkers('<<SWARM_MSG:TO=a:START>>\n\n  body\n<<SWARM_MSG:END>>').blocks).toEqual([
      { kind: 'to', to: 'a', content: 'body' },
    ]);
  });

  it('matches the contract grammar (a global regex) on any mix of marker fragments', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(extractMarkers(text)).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  // The former global regex took 35-65 s of blocked event loop on each of the first two (measured);
  // the linear scan takes milliseconds. Speed is not asserted here (no timed tests): these pin the result.
  test.each([
    ['unterminated broadcast STARTs', '<<SWARM_MSG:BROADCAST:START>>', 36_000],
    ['unterminated directed STARTs', '<<SWARM_MSG:TO=web-bot:START>>\n', 33_000],
    ['near-miss prefixes', '<<SWARM_MSG:TO=a', 65_000],
  ])('a 1 MiB reply of %s routes nothing and stays text', (_name, unit, count) => {
    const text = unit.repeat(count);
    expect(extractMarkers(text)).toEqual({ blocks: [], replyText: text.trim() });
  });

  it('thousands of blocks are all extracted, in order', () => {
    const text = Array.from({ length: 5000 }, (_v, i) => `t${i}<<SWARM_MSG:TO=a:START>>m${i}<<SWARM_MSG:END>>`).join('');
    const r = extractMarkers(text);
    expect(r.blocks).toHaveLength(5000);
    expect(r.blocks[4999]).toEqual({ kind: 'to', to: 'a', content: 'm4999' });
    expect(r.replyText).toBe(Array.from({ length: 5000 }, (_v, i) => `t${i}`).join(''));
  });
});
