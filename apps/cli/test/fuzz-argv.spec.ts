/**
 * Fuzz target `cli-argv` (docs/reliability.md "Fuzzing"): generated argv for every command of the
 * commander program (the command tree and its flags harvested from COMMANDS), mixed with hostile words,
 * run in-process by `runCli` against an unreachable server (GENSWARMS_URL on a closed loopback port).
 * Commands with local side effects (`up`, `down`, `image build`, `attach`, `ssh`, `doctor`, `clients`) are parsed
 * only: their action is not run. Criteria: no throw, no hang, an exit code of docs/cli.md (0–4), never
 * the `internal_error` line of an unexpected exception, never a stack trace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { Command } from 'commander';
import fc from 'fast-check';
import { HOSTILE_STRINGS, freePort, replayFuzzRegressions, runFuzzTarget } from '@genswarms/tools';
import type { FuzzTarget } from '@genswarms/tools';
import { COMMANDS, runCli } from '../src/index';
import type { CliContext, CommandDeps } from '../src/index';

/** Top-level commands whose action would start, stop or build something on this host. */
const PARSE_ONLY = new Set(['up', 'down', 'image', 'attach', 'ssh', 'doctor', 'clients']);

interface CommandShape {
  readonly words: readonly string[];
  readonly flags: readonly string[];
}

/** The command tree with each command's flags, read from a program built from COMMANDS. */
function commandShapes(): CommandShape[] {
  const program = new Command();
  const deps = { ctx: {} as CliContext, api: () => undefined as never, action: () => async () => undefined } as unknown as CommandDeps;
  for (const m of COMMANDS) m.register(program, deps);
  const out: CommandShape[] = [];
  const walk = (cmd: Command, words: string[]): void => {
    for (const sub of cmd.commands) {
      const path = [...words, sub.name()];
      out.push({ words: path, flags: sub.options.flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined)) });
      walk(sub, path);
    }
  };
  walk(program, []);
  return out;
}

const SHAPES = commandShapes();
const WORDS = [
  'demo',
  'planner',
  'a',
  '-',
  '--',
  '-h',
  '--help',
  '-V',
  '--json',
  '0',
  '-1',
  '1e3',
  '99999999999999999999',
  'NaN',
  '/dev/zero',
  '/proc/self/environ',
  '/etc/shadow',
  'nope.yaml',
  '{"a":1}',
  '--no-such-flag',
  '-abc',
  '=',
  '--x=y',
];

const word: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 1000)) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
);

const argv: fc.Arbitrary<string[]> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .constantFrom(...SHAPES)
      .chain((shape) =>
        fc
          .array(
            fc.oneof(
              { weight: 2, arbitrary: shape.flags.length > 0 ? fc.constantFrom(...shape.flags) : word },
              { weight: 3, arbitrary: word },
            ),
            { maxLength: 6 },
          )
          .map((rest) => [...shape.words, ...rest]),
      ),
  },
  { weight: 1, arbitrary: fc.array(word, { maxLength: 6 }) },
);

let home: string;
let url: string;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'gs-fuzz-cli-'));
  url = `http://127.0.0.1:${await freePort()}`; // nothing listens there: every call is refused
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function context(out: string[]): CliContext {
  const sink = (): PassThrough => {
    const s = new PassThrough();
    s.on('data', (c: Buffer) => out.push(c.toString('utf8')));
    return s;
  };
  return {
    env: { GENSWARMS_URL: url, GENSWARMS_HOME: home, HOME: home, PATH: '/usr/bin:/bin' },
    cwd: home,
    stdout: sink(),
    stderr: sink(),
    stdin: Readable.from([]),
  };
}

const target: FuzzTarget<string[]> = {
  name: 'cli-argv',
  arbitrary: argv,
  async check(words) {
    const out: string[] = [];
    const first = words.find((w) => !w.startsWith('-'));
    const parseOnly = first !== undefined && PARSE_ONLY.has(first);
    const code = parseOnly ? await parseWithoutActions(words, context(out)) : await runCli(words, context(out));
    const text = out.join('');
    if (![0, 1, 2, 3, 4].includes(code)) throw new Error(`exit ${code} is not a docs/cli.md exit code`);
    if (/genswarms: internal_error/.test(text)) throw new Error(`unexpected exception: ${text.slice(0, 300)}`);
    if (/\n\s+at .+:\d+:\d+\)?\n/.test(text)) throw new Error(`a stack trace was printed: ${text.slice(0, 300)}`);
  },
};

/** commander parsing of a side-effect command, its action replaced by a no-op (exit 0). */
async function parseWithoutActions(words: readonly string[], ctx: CliContext): Promise<number> {
  const program = new Command()
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.stdout.write(s), writeErr: (s) => ctx.stderr.write(s) });
  const deps = { ctx, api: () => undefined as never, action: () => async () => undefined } as unknown as CommandDeps;
  for (const m of COMMANDS) m.register(program, deps);
  try {
    await program.parseAsync([...words], { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof Error && 'code' in err && String((err as { code: unknown }).code).startsWith('commander.')) return 2;
    throw err;
  }
}

describe('fuzz: cli-argv (runCli on generated argv, unreachable server)', () => {
  it('knows the command tree (the fuzz inputs reach every command)', () => {
    expect(SHAPES.map((s) => s.words.join(' '))).toEqual(
      expect.arrayContaining(['status', 'task', 'config validate', 'objects patch', 'up']),
    );
  });

  it('replays every saved failing case', async () => {
    expect(await replayFuzzRegressions(target)).toEqual([]);
  });

  it('generated argv: no throw, no hang, documented exit codes, no internal_error', async () => {
    expect((await runFuzzTarget(target)).failure).toBeUndefined();
  });
});
