import type { Command } from 'commander';

/** One node of the command tree as completion needs it: words after it, flags that take a value, file arguments. */
export interface CompletionNode {
  /** `""` for the program, `agents`, `agents add`. */
  readonly path: string;
  readonly subcommands: readonly string[];
  readonly flags: readonly string[];
  /** Flags followed by a value (`--limit <n>`): the next word is that value, not a command. */
  readonly valueFlags: readonly string[];
  /** Whether a positional argument is a local file (`<config>`, `<file>`, `<files...>`). */
  readonly files: boolean;
}

const FILE_ARG_RE = /^(config|file|files)$/;

/** Every command of `program`, walked from the commander tree itself (nothing is listed by hand). */
export function commandTree(program: Command): CompletionNode[] {
  const out: CompletionNode[] = [];
  const walk = (cmd: Command, path: string): void => {
    const flags = cmd.options.flatMap((o) => [o.long, o.short].filter((f): f is string => typeof f === 'string'));
    const valueFlags = cmd.options
      .filter((o) => o.required || o.optional)
      .flatMap((o) => [o.long, o.short].filter((f): f is string => typeof f === 'string'));
    const subs = cmd.commands.map((c) => c.name());
    out.push({
      path,
      subcommands: subs,
      flags: [...new Set([...flags, '--help'])],
      valueFlags,
      files: cmd.registeredArguments.some((a) => FILE_ARG_RE.test(a.name())),
    });
    for (const sub of cmd.commands) walk(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
  };
  walk(program, '');
  return out;
}
