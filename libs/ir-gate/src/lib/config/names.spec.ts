import { validateConfig } from './validate-config';
import { isName, NAME_RE } from './names';

const swarmWithAgent = (name: unknown): unknown => ({ name: 's', agents: [{ name }] });

describe('Name grammar', () => {
  test.each([
    ['a; touch /tmp/x'],
    ['a$(id)'],
    ['../x'],
    ['1abc'],
    ['a\n'],
    ['\na'],
    ['a'.repeat(65)],
    [''],
    ['agént'],
    ['ａ'],
    ['a b'],
    ['a/b'],
    ['a.b'],
    ['-a'],
    ['_a'],
    ['a\0'],
  ])('refuses %j as an agent name', (bad) => {
    expect(isName(bad)).toBe(false);
    const r = validateConfig(swarmWithAgent(bad));
    expect(r.kind).toBe('invalid');
    if (r.kind === 'invalid') {
      expect(r.error).toBe('validation_failed');
      expect(r.issues.map((i) => (i as { path: string }).path)).toContain('agents.0.name');
    }
  });

  test.each([['a'], ['A-b_9'], ['a'.repeat(64)], ['researcher'], ['web-bot']])('accepts %j', (good) => {
    expect(isName(good)).toBe(true);
    expect(validateConfig(swarmWithAgent(good)).kind).toBe('ok');
  });

  test('a trailing newline never matches (no m flag)', () => {
    expect(NAME_RE.flags).toBe('');
    expect(NAME_RE.test('abc\n')).toBe(false);
  });

  test.each([[1], [null], [{}], [['a']]])('refuses a non-string name %j', (bad) => {
    expect(validateConfig(swarmWithAgent(bad)).kind).toBe('invalid');
  });

  test('refuses a bad swarm name', () => {
    const r = validateConfig({ name: 'x y', agents: [{ name: 'a' }] });
    expect(r.kind === 'invalid' && r.issues[0]).toMatchObject({ path: 'name' });
  });
});
