import { RunnerError } from '../errors/runner-error';

/**
 * docs/runners.md: every argv word is a non-empty string without NUL. Words are data, never syntax,
 * so nothing else is refused here (shell metacharacters are harmless without a shell).
 */
export function assertArgv(words: readonly string[], agent?: string): void {
  if (words.length === 0) {
    throw new RunnerError('invalid_argv', 'argv is empty', agentOpt(agent));
  }
  words.forEach((word, index) => {
    if (typeof word !== 'string' || word.length === 0) {
      throw new RunnerError('invalid_argv', `argv word ${index} is empty`, { ...agentOpt(agent), details: { index } });
    }
    if (word.includes('\0')) {
      throw new RunnerError('invalid_argv', `argv word ${index} contains NUL`, { ...agentOpt(agent), details: { index } });
    }
  });
}

function agentOpt(agent: string | undefined): { agent?: string } {
  return agent === undefined ? {} : { agent };
}
