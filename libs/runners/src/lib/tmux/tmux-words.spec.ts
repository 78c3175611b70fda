import { RunnerError } from '../errors/runner-error';
import {
  assertQuotablePath,
  buildTmuxCommand,
  CONTROL_SESSION,
  tmuxConst,
  tmuxFormat,
  tmuxInt,
  tmuxName,
  tmuxPane,
  tmuxPath,
  tmuxSessionTarget,
  tmuxWindowTarget,
} from './tmux-words';
import { codeOf } from '@genswarms/test-kit';

describe('tmux words', () => {
  it.each([
    ['single quote', "/a/b'c"],
    ['newline', '/a/b\nc'],
    ['NUL', '/a/b\0c'],
    ['carriage return', '/a/b\rc'],
    ['escape', '/a/\x1b[201~'],
    ['tab', '/a/\tb'],
    ['DEL', '/a/\x7f'],
    ['relative', 'a/b'],
    ['empty', ''],
    ['dot-relative', './a'],
  ])('refuses a host path with %s (unsafe_bind)', (_label, p) => {
    expect(codeOf(RunnerError, () => tmuxPath(p))).toBe('unsafe_bind');
    expect(codeOf(RunnerError, () => assertQuotablePath(p))).toBe('unsafe_bind');
  });

  it.each([
    ['/a/$(touch /tmp/pwned)', "'/a/$(touch /tmp/pwned)'"],
    ['/a/`id`;b|c&d', "'/a/`id`;b|c&d'"],
    ['/a/#{pane_id}', "'/a/#{pane_id}'"],
    ['/~/$HOME/"x"/\\', '\'/~/$HOME/"x"/\\\''],
    ['/ünï cødé/—', "'/ünï cødé/—'"],
  ])('single-quotes the host path %j', (p, quoted) => {
    expect(tmuxPath(p).text).toBe(quoted);
  });

  it('doubles # for commands that expand formats', () => {
    expect(tmuxPath('/a/#{session_name}/##', { formatExpanded: true }).text).toBe("'/a/##{session_name}/####'");
  });

  it.each(['a;b', 'a b', '$x', '#{x}', "'", '"', '', 'ü', 'a\n', '~'])('refuses the constant %j', (c) => {
    expect(codeOf(RunnerError, () => tmuxConst(c))).toBe('runner_error');
  });

  it.each(['1abc', '_genswarms', '__proto__', 'a;b', 'a b', 'a:b', '=a', 'a.b', '', 'x'.repeat(65), 'a\n', 'ü'])(
    'refuses the Name %j',
    (n) => {
      expect(codeOf(RunnerError, () => tmuxName(n))).toBe('validation_failed');
      expect(codeOf(RunnerError, () => tmuxWindowTarget('sw', n))).toBe('validation_failed');
    },
  );

  it('builds exact targets', () => {
    expect(tmuxWindowTarget('Sw-1', 'a_b').text).toBe('=Sw-1:=a_b');
    expect(tmuxSessionTarget('sw').text).toBe('=sw:');
    expect(tmuxSessionTarget(CONTROL_SESSION).text).toBe('=_genswarms:');
    expect(codeOf(RunnerError, () => tmuxSessionTarget('_other'))).toBe('validation_failed');
  });

  it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2])('refuses the integer %p', (n) => {
    expect(codeOf(RunnerError, () => tmuxInt(n))).toBe('runner_error');
  });

  it.each(['1', '%', '%1;', '%1 x', '@1', '%-1'])('refuses the pane id %j', (id) => {
    expect(codeOf(RunnerError, () => tmuxPane(id))).toBe('runner_error');
  });

  it.each(["#{x}'", '#{x}\n', '#{x};y'])('refuses the format %j', (f) => {
    expect(codeOf(RunnerError, () => tmuxFormat(f))).toBe('runner_error');
  });

  it('joins words with single spaces and refuses forged words', () => {
    expect(buildTmuxCommand([tmuxConst('send-keys'), tmuxConst('-t'), tmuxPane('%12'), tmuxConst('Enter')])).toBe('send-keys -t %12 Enter');
    expect(codeOf(RunnerError, () => buildTmuxCommand([]))).toBe('runner_error');
    expect(codeOf(RunnerError, () => buildTmuxCommand([{ text: 'run-shell id' } as never]))).toBe('runner_error');
  });
});
