import { extractMarkers } from './markers';

describe('extractMarkers', () => {
  it('extracts directed and broadcast blocks in order and leaves the reply text', () => {
    const text = 'Intro\n<<SWARM_MSG:TO=web-bot:START>>\nhello bot\n<<SWARM_MSG:END>>\nmiddle\r\n<<SWARM_MSG:BROADCAST:START>>\r\nto all<<SWARM_MSG:END>> tail ';
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
    ['name with a space is not a marker', '<<SWARM_MSG:TO=a b:START>>x<<SWARM_MSG:END>>', [], '<<SWARM_MSG:TO=a b:START>>x<<SWARM_MSG:END>>'],
    ['name starting with a digit is not a marker', '<<SWARM_MSG:TO=1a:START>>x<<SWARM_MSG:END>>', [], '<<SWARM_MSG:TO=1a:START>>x<<SWARM_MSG:END>>'],
    ['unterminated block stays text', '<<SWARM_MSG:TO=a:START>>x', [], '<<SWARM_MSG:TO=a:START>>x'],
    ['path traversal name is not a marker', '<<SWARM_MSG:TO=../x:START>>x<<SWARM_MSG:END>>', [], '<<SWARM_MSG:TO=../x:START>>x<<SWARM_MSG:END>>'],
  ])('%s', (_name, text, blocks, replyText) => {
    expect(extractMarkers(text)).toEqual({ blocks, replyText });
  });

  it('keeps only one newline after START', () => {
    expect(extractMarkers('<<SWARM_MSG:TO=a:START>>\n\n  body\n<<SWARM_MSG:END>>').blocks).toEqual([{ kind: 'to', to: 'a', content: 'body' }]);
  });
});
