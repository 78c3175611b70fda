import { answerFromScript, loadMockScript, MOCK_SCRIPT_MAX_ENTRIES } from './mock-script';

describe('loadMockScript', () => {
  test.each<[string, string, string]>([
    ['an empty script', '[]', 'ok'],
    ['entries with exactly match and response', '[{"match":"a","response":"b"},{"match":"/x+/i","response":"{{content}}"}]', 'ok'],
    ['not JSON', '[{', 'script is not valid JSON'],
    ['a number entry', '[1]', '0: expected an object'],
    ['an extra key', '[{"match":"a","response":"b","status":500}]', '0.status: unknown key'],
    ['an own __proto__', '[{"match":"a","response":"b","__proto__":{}}]', '0.__proto__: unknown key'],
    ['a missing response', '[{"match":"a"}]', '0.response: required'],
    ['a numeric match', '[{"match":1,"response":"b"}]', '0.match: expected a string'],
    ['an invalid regex', '[{"match":"/(/","response":"b"}]', '0.match: invalid regular expression'],
    [
      'too many entries',
      JSON.stringify(new Array(MOCK_SCRIPT_MAX_ENTRIES + 1).fill({ match: 'a', response: 'b' })),
      '(root): more than 10000 items',
    ],
  ])('%s → %s', (_name, raw, expected) => {
    const loaded = loadMockScript(raw);
    expect(loaded.kind === 'ok' ? 'ok' : loaded.reason).toBe(expected);
  });

  it('answers from the first matching entry, substituting {{content}} literally', () => {
    const loaded = loadMockScript('[{"match":"/^plan/i","response":"P: {{content}} $&"},{"match":"","response":"any"}]');
    if (loaded.kind !== 'ok') throw new Error(loaded.reason);
    expect(answerFromScript(loaded.script, 'Plan $1')).toBe('P: Plan $1 $&');
    expect(answerFromScript(loaded.script, 'other')).toBe('any');
  });
});
