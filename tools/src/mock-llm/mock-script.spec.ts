import { chooseReply, isScriptMatch, parseMockScript, renderResponse } from './mock-script';

describe('mock script matching', () => {
  test.each([
    ['plain substring', 'hello', 'say hello there', true],
    ['substring absent', 'bye', 'say hello', false],
    ['regex form', '/^task \\d+$/', 'task 42', true],
    ['regex with flags', '/HELLO/i', 'hello', true],
    ['regex not matching', '/^x$/', 'xx', false],
    ['a lone slash is a substring', '/', 'a/b', true],
    ['regex metacharacters in a substring are literal', 'a.b', 'axb', false],
  ])('%s', (_name, match, content, expected) => {
    expect(isScriptMatch(match, content)).toBe(expected);
  });

  it('substitutes {{content}} literally, without $-replacement patterns', () => {
    expect(renderResponse('got {{content}} / {{content}}', "$& $1 $'")).toBe("got $& $1 $' / $& $1 $'");
  });

  it('takes the first matching entry and echoes when none matches', () => {
    const script = [
      { match: 'alpha', response: 'first: {{content}}' },
      { match: 'alpha', response: 'second' },
    ];
    expect(chooseReply(script, 'alpha!')).toEqual({ kind: 'text', content: 'first: alpha!' });
    expect(chooseReply(script, 'beta')).toEqual({ kind: 'text', content: 'mock: beta' });
  });

  it('turns an entry with status into an HTTP error reply', () => {
    expect(chooseReply([{ match: 'x', response: 'boom', status: 503 }], 'x')).toEqual({ kind: 'http_error', status: 503, content: 'boom' });
  });

  test.each([
    ['not an array', { match: 'a', response: 'b' }],
    ['unknown key', [{ match: 'a', response: 'b', extra: 1 }]],
    ['__proto__ key', JSON.parse('[{"match":"a","response":"b","__proto__":{"x":1}}]')],
    ['missing response', [{ match: 'a' }]],
    ['status outside 400..599', [{ match: 'a', response: 'b', status: 200 }]],
    ['invalid regex', [{ match: '/(/', response: 'b' }]],
  ])('rejects a script with %s', (_name, raw) => {
    expect(parseMockScript(raw).kind).toBe('invalid');
  });
});
