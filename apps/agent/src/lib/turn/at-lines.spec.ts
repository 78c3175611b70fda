import { extractAtMessages } from './at-lines';

const TOPOLOGY = ['critic', 'web-bot'];

describe('extractAtMessages', () => {
  test.each([
    ['a line for a target', '@critic: look', [{ to: 'critic', content: 'look' }]],
    ['a hyphenated name', '@web-bot: fetch', [{ to: 'web-bot', content: 'fetch' }]],
    ['spaces are trimmed, CRLF accepted', '@critic:   a b  \r\nnext', [{ to: 'critic', content: 'a b' }]],
    ['not in the topology', '@stranger: hi', []],
    ['not at line start', 'say @critic: hi', []],
    ['empty text', '@critic:   ', []],
    ['no colon', '@critic hi', []],
    ['outside the Name grammar', '@../etc: x\n@__proto__: x\n@1abc: x', []],
    [
      'inside a SWARM_MSG block',
      '<<SWARM_MSG:TO=critic:START>>\n@web-bot: x\n<<SWARM_MSG:END>>\n@critic: y',
      [{ to: 'critic', content: 'y' }],
    ],
    ['after a one-line block', '<<SWARM_MSG:BROADCAST:START>>all<<SWARM_MSG:END>>\n@critic: y', [{ to: 'critic', content: 'y' }]],
    [
      'several, in order',
      '@web-bot: 1\ntext\n@critic: 2',
      [
        { to: 'web-bot', content: '1' },
        { to: 'critic', content: '2' },
      ],
    ],
  ])('%s', (_name, answer, expected) => {
    expect(extractAtMessages(answer, TOPOLOGY)).toEqual(expected);
  });

  it('takes nothing when the agent has no targets', () => {
    expect(extractAtMessages('@critic: hi', [])).toEqual([]);
  });
});
