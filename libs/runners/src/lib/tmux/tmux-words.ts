import { NAME_RE } from '@genswarms/ir-gate';
import { RunnerError } from '../errors/runner-error';

/**
 * docs/runners.md: every token of a tmux command is a constant, a decimal integer, a Name or a host
 * path. A `TmuxWord` can only be made by the constructors below, so a command line built from
 * `TmuxWord`s cannot carry `;`, `$`, `~`, `#{…}`, quotes or a newline that tmux would interpret.
 */
export interface TmuxWord {
  readonly __tmuxWord: true;
  readonly text: string;
}

/** The hidden session the control client attaches to; starts with `_`, so no Name can take it. */
export const CONTROL_SESSION = '_genswarms';

/** Swarm/agent Name grammar: the workspace's one definition, from ir-gate. */
export { NAME_RE };
/** Constants: command names, flags, option names and values, buffer ids. */
const CONSTANT_RE = /^[A-Za-z0-9_-]+$/;
/** Constant format strings written in this source tree (never from input). */
const FORMAT_RE = /^[A-Za-z0-9_ #{}:=,.-]+$/;
/** C0 controls and DEL: never accepted in a host path (stricter than the documented rule, which names \n and NUL). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_RE = /[\x00-\x1f\x7f]/;

function word(text: string): TmuxWord {
  return { __tmuxWord: true, text };
}

/** A constant token (command, flag, option): letters, digits, `_` and `-` only. */
export function tmuxConst(value: string): TmuxWord {
  if (!CONSTANT_RE.test(value)) throw new RunnerError('runner_error', 'tmux constant has unexpected characters');
  return word(value);
}

/** A non-negative decimal integer. */
export function tmuxInt(value: number): TmuxWord {
  if (!Number.isSafeInteger(value) || value < 0) throw new RunnerError('runner_error', 'tmux integer out of range');
  return word(String(value));
}

/** A Name (swarm or agent); refused with `validation_failed` otherwise. */
export function tmuxName(value: string): TmuxWord {
  if (!NAME_RE.test(value)) throw new RunnerError('validation_failed', 'not a Name');
  return word(value);
}

/** An exact session:window target `=<swarm>:=<agent>` (the `=` disables prefix matching). */
export function tmuxWindowTarget(swarm: string, agent: string): TmuxWord {
  return word(`=${tmuxName(swarm).text}:=${tmuxName(agent).text}`);
}

/** An exact session target `=<session>:` for new windows. */
export function tmuxSessionTarget(session: string): TmuxWord {
  if (session !== CONTROL_SESSION && !NAME_RE.test(session)) throw new RunnerError('validation_failed', 'not a Name');
  return word(`=${session}:`);
}

/** A pane id as tmux prints it (`%<n>`). */
export function tmuxPane(paneId: string): TmuxWord {
  if (!/^%[0-9]{1,9}$/.test(paneId)) throw new RunnerError('runner_error', 'not a tmux pane id');
  return word(paneId);
}

/** A constant format string, single-quoted (it is never built from input). */
export function tmuxFormat(value: string): TmuxWord {
  if (!FORMAT_RE.test(value)) throw new RunnerError('runner_error', 'tmux format has unexpected characters');
  return word(`'${value}'`);
}

/**
 * A control-mode subscription `'<name>:%*:<format>'` (`refresh-client -B`): `format` is evaluated for every
 * pane of the attached session and each change is reported as `%subscription-changed`. Constants only.
 */
export function tmuxPaneSubscription(name: string, format: string): TmuxWord {
  if (!CONSTANT_RE.test(name) || !FORMAT_RE.test(format))
    throw new RunnerError('runner_error', 'tmux subscription has unexpected characters');
  return word(`'${name}:%*:${format}'`);
}

/**
 * An absolute host path, single-quoted (tmux expands nothing inside single quotes). A path holding
 * `'`, a newline, NUL or any other control character is refused with `unsafe_bind`.
 * `formatExpanded`: the command runs the argument through tmux formats (e.g. `load-buffer`), so
 * `#` is doubled to stay literal.
 */
export function tmuxPath(path: string, opts: { readonly formatExpanded?: boolean } = {}): TmuxWord {
  assertQuotablePath(path);
  const body = opts.formatExpanded === true ? path.replaceAll('#', '##') : path;
  return word(`'${body}'`);
}

/** Throws `unsafe_bind` unless `path` can be single-quoted for tmux. */
export function assertQuotablePath(path: string): void {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new RunnerError('unsafe_bind', 'tmux host path must be absolute');
  }
  if (path.includes("'") || CONTROL_RE.test(path)) {
    throw new RunnerError('unsafe_bind', 'tmux host path contains a quote, newline, NUL or control character');
  }
}

/** One command line for the control client. */
export function buildTmuxCommand(words: readonly TmuxWord[]): string {
  if (words.length === 0) throw new RunnerError('runner_error', 'empty tmux command');
  for (const w of words) {
    if (w.__tmuxWord !== true) throw new RunnerError('runner_error', 'not a TmuxWord');
  }
  return words.map((w) => w.text).join(' ');
}

/** Shorthand: constants from a space-free list, e.g. `tmuxConsts('set-option', '-g')`. */
export function tmuxConsts(...values: readonly string[]): TmuxWord[] {
  return values.map(tmuxConst);
}
