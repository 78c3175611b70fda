import {
  redactScreen,
  secretValuesOf,
  tailScreenLines,
  SCREEN_TAIL_LINE_CHARS,
  SCREEN_TAIL_LINES,
} from '../../src/lib/screen/screen-lines';

describe('screen lines in details: bounded, controls neutralised, secrets replaced', () => {
  it.each([
    ['GENSWARMS_LLM_API_KEY', true],
    ['OPENAI_API_KEY', true],
    ['ANTHROPIC_APIKEY', true],
    ['GITHUB_TOKEN', true],
    ['DB_PASSWORD', true],
    ['PATH', false],
    ['KEYBOARD', false],
    ['__proto__', false],
  ])('takes the value of %s as a secret: %s', (name, secret) => {
    const env: Record<string, string> = Object.create(null) as Record<string, string>;
    env[name] = 'value-long-enough-1';
    expect(secretValuesOf(env)).toEqual(secret ? ['value-long-enough-1'] : []);
  });

  it('ignores secret values too short to search for (a short one would blank the screen)', () => {
    expect(secretValuesOf({ GENSWARMS_LLM_API_KEY: 'x' })).toEqual([]);
  });

  it('replaces every occurrence of every secret, also several on one line', () => {
    expect(redactScreen(['a sk-aaaaaaaa b sk-aaaaaaaa', 'tok-bbbbbbbb'], ['sk-aaaaaaaa', 'tok-bbbbbbbb'])).toEqual([
      'a [REDACTED] b [REDACTED]',
      '[REDACTED]',
    ]);
  });

  it('keeps the newest lines, one blank line per run of blanks, none at the ends', () => {
    expect(tailScreenLines(['', '', 'first', '', '', '', 'second   ', '', ''])).toEqual(['first', '', 'second']);
    const many = Array.from({ length: 100 }, (_v, i) => `line ${i}`);
    expect(tailScreenLines(many)).toEqual(many.slice(-SCREEN_TAIL_LINES));
  });

  it.each([
    ['ESC sequences', 'a\x1b[201~b\x1b]52;c;Zm9v\x07', 'a\uFFFD[201~b\uFFFD]52;c;Zm9v\uFFFD'],
    ['C1 controls and NUL', 'x\u009b31m\u0000y', 'x\uFFFD31m\uFFFDy'],
    ['an overlong line', 'é'.repeat(1000), 'é'.repeat(SCREEN_TAIL_LINE_CHARS)],
  ])('neutralises %s', (_label, line, expected) => {
    expect(tailScreenLines([line])).toEqual([expected]);
  });
});
