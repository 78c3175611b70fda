import { RunnerError } from '@genswarms/runners';
import { attentionOfDeliveryError, attentionOfReadiness } from './client-attention';

describe('client_prompt_blocked attention', () => {
  it.each([
    [{ kind: 'ready', waitedMs: 1 } as const, null],
    [{ kind: 'aborted' } as const, null],
    [{ kind: 'exited', lastLines: ['x'] } as const, null],
    [
      { kind: 'blocked', dialog: 'codex_sign_in', lastLines: ['Sign in'] } as const,
      { reason: 'client_prompt_blocked', turn: null, details: { dialog: 'codex_sign_in', stage: 'not_ready', last_lines: ['Sign in'] } },
    ],
    [
      { kind: 'timeout', waitedMs: 60000, lastLines: [] } as const,
      { reason: 'client_prompt_blocked', turn: null, details: { stage: 'not_ready', last_lines: [] } },
    ],
  ])('a start that ended %j', (readiness, expected) => {
    expect(attentionOfReadiness(readiness)).toEqual(expected);
  });

  it.each([
    ['another runner code', new RunnerError('runner_error', 'gone'), null],
    ['a plain error', new Error('client_prompt_blocked'), null],
    ['a look-alike object', { code: 'client_prompt_blocked', details: { dialog: 'x' } }, null],
    [
      'hostile details (non-strings dropped)',
      new RunnerError('client_prompt_blocked', 'stuck', {
        details: { dialog: 42, stage: 'paste_not_shown', last_lines: ['a', 7, null, 'b'] },
      }),
      { reason: 'client_prompt_blocked', turn: 't1', details: { stage: 'paste_not_shown', last_lines: ['a', 'b'] } },
    ],
  ])('a delivery that failed with %s', (_label, error, expected) => {
    expect(attentionOfDeliveryError(error, 't1')).toEqual(expected);
  });
});
