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

  it('uses an entry with times for its first N matches, then falls through (429 once, then 200)', () => {
    const script = [
      { match: 'x', response: 'slow down', status: 429, times: 1, retry_after: '0' },
      { match: 'x', response: 'ok: {{content}}' },
    ];
    const uses: number[] = [];
    expect(chooseReply(script, 'x', uses)).toEqual({ kind: 'http_error', status: 429, content: 'slow down', retryAfter: '0' });
    expect(chooseReply(script, 'x', uses)).toEqual({ kind: 'text', content: 'ok: x' });
    expect(chooseReply(script, 'x', uses)).toEqual({ kind: 'text', content: 'ok: x' });
  });

  test.each([
    ['not an array', { match: 'a', response: 'b' }],
    ['unknown key', [{ match: 'a', response: 'b', extra: 1 }]],
    ['__proto__ key', JSON.parse('[{"match":"a","response":"b","__proto__":{"x":1}}]')],
    ['missing response', [{ match: 'a' }]],
    ['status outside 400..599', [{ match: 'a', response: 'b', status: 200 }]],
    ['invalid regex', [{ match: '/(/', response: 'b' }]],
    ['times below 1', [{ match: 'a', response: 'b', times: 0 }]],
    ['a retry_after with a line break (header injection)', [{ match: 'a', response: 'b', retry_after: '1\r\nx-evil: 1' }]],
    ['an empty retry_after', [{ match: 'a', response: 'b', retry_after: '' }]],
  ])('rejects a script with %s', (_name, raw) => {
    expect(parseMockScript(raw).kind).toBe('invalid');
  });
});
