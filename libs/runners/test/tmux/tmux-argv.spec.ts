import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import type { InnerRunner, Runner } from '../../src/lib/port';
import type { RunnerError } from '../../src/lib/errors/runner-error';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import type { TmuxServer } from '../../src/lib/tmux/tmux-server';
import {
  describeIfBinaries,
  ECHO_ARGV,
  FIXTURES_DIR,
  makeTestEnv,
  NODE,
  readEchoReport,
  SANDBOX_FIXTURES,
  tmuxSpec,
  type TmuxTestEnv,
} from './tmux-support';

const PWNED = `/tmp/pwned-${randomBytes(6).toString('hex')}`;

/** Hostile words that must reach the client byte-for-byte (none of them may ever run). */
const HOSTILE: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['command substitution', [`$(touch ${PWNED})`, `"$(touch ${PWNED})"`]],
  ['backticks', [`\`touch ${PWNED}\``]],
  ['separators and pipes', [`; touch ${PWNED}`, `| touch ${PWNED}`, `&& touch ${PWNED} &`]],
  ['quotes', [`'`, `"`, `'\\''`, `it's "quoted"`]],
  ['newlines and tabs', ['a\nb', '\n', 'tab\there', '\r\n']],
  ['leading dashes and --', ['-', '--', '--help', '-rf', '-- --']],
  ['tmux syntax', ['#{pane_id}', '~', '$HOME', '{', '}', '\\;', ';', 'C-c', 'Enter']],
  ['unicode', ['ünïcødé', '—', '🦀', '\u202e', '\u00a0']],
];

function inner(runner: InnerRunner): { prefix: (env: TmuxTestEnv) => string; spec: (env: TmuxTestEnv) => object } {
  if (runner === 'none') return { prefix: () => ECHO_ARGV, spec: () => ({ runner: 'none' }) };
  return {
    prefix: () => `${SANDBOX_FIXTURES}/echo-argv.js`,
    spec: () => ({ runner: 'bwrap', config: { extra_ro_binds: [[FIXTURES_DIR, SANDBOX_FIXTURES]] } }),
  };
}

describe.each(['none', 'bwrap'] as const)('tmux runner %s: argv fidelity', (runnerKind) => {
  const needs = runnerKind === 'bwrap' ? ['tmux', 'xargs', 'bwrap'] : ['tmux', 'xargs'];
  describeIfBinaries(needs)('with real tmux and xargs', () => {
    let env: TmuxTestEnv;
    let runner: Runner & { server(ctx: TmuxTestEnv['ctx']): Promise<TmuxServer> };
    let n = 0;

    beforeAll(async () => {
      env = await makeTestEnv(`argv-${runnerKind}`);
      runner = createTmuxRunner();
    });
    afterAll(async () => {
      await (await runner.server(env.ctx)).kill();
      await env.cleanup();
    });

    /** `extra` words are appended to the planned client argv (past the 256-word command cap). */
    async function roundTrip(words: readonly string[], extra: readonly string[] = []): Promise<string[]> {
      const agent = `a${n++}`;
      const ws = `${env.workspace}/${agent}`;
      await fsp.mkdir(ws);
      const i = inner(runnerKind);
      const spec = { ...tmuxSpec(env, agent, [NODE, i.prefix(env), ...words]), ...i.spec(env), workspace: ws };
      const plan = runner.plan(spec, env.ctx);
      const handle = await runner.start({ ...plan, clientArgv: [...plan.clientArgv, ...extra] }, env.ctx);
      try {
        return (await readEchoReport(ws)).argv;
      } finally {
        await handle.stop({ graceMs: 500 });
      }
    }

    it.each(HOSTILE)('passes %s through verbatim', async (_label, words) => {
      expect(await roundTrip(words)).toEqual(words);
      expect(existsSync(PWNED)).toBe(false);
    });

    it('passes a 100,000-character word', async () => {
      const core = `$(touch ${PWNED})`;
      const word = `${'x'.repeat(50_000)}${core}${'y'.repeat(50_000 - core.length)}`;
      expect(word).toHaveLength(100_000);
      const got = await roundTrip([word]);
      expect(got).toHaveLength(1);
      expect(got[0]).toBe(word);
    });

    it('replays a 5,000-word launch vector in one run (manifest + xargs + tmux)', async () => {
      const words = Array.from({ length: 5000 }, (_, k) => `w${k}`);
      expect(await roundTrip(['first'], words)).toEqual(['first', ...words]);
    });

    it('refuses a command client of more than 256 words at plan time (validation_failed)', () => {
      const words = Array.from({ length: 256 }, (_, k) => `w${k}`);
      const spec = { ...tmuxSpec(env, 'many', [NODE, ...words]), ...inner(runnerKind).spec(env) };
      expect(() => runner.plan(spec, env.ctx)).toThrow(expect.objectContaining({ code: 'validation_failed' }) as unknown as RunnerError);
    });

    it('refuses an empty word at plan time (invalid_argv)', () => {
      const spec = { ...tmuxSpec(env, 'empty', [NODE, ECHO_ARGV, 'ok', '']), ...inner(runnerKind).spec(env) };
      expect(() => runner.plan(spec, env.ctx)).toThrow(expect.objectContaining({ code: 'invalid_argv' }) as unknown as RunnerError);
    });

    it('refuses a word with NUL at plan time (invalid_argv)', () => {
      const spec = { ...tmuxSpec(env, 'nul', [NODE, ECHO_ARGV, 'a\0b']), ...inner(runnerKind).spec(env) };
      expect(() => runner.plan(spec, env.ctx)).toThrow(expect.objectContaining({ code: 'invalid_argv' }) as unknown as RunnerError);
    });

    it('refuses a launch over 131072 bytes instead of splitting it (launch_too_large)', () => {
      const words = ['x'.repeat(70_000), 'y'.repeat(70_000)];
      const spec = { ...tmuxSpec(env, 'big', [NODE, ECHO_ARGV, ...words]), ...inner(runnerKind).spec(env) };
      expect(() => runner.plan(spec, env.ctx)).toThrow(expect.objectContaining({ code: 'launch_too_large' }) as unknown as RunnerError);
    });

    it('never created the pwned file', () => {
      expect(existsSync(PWNED)).toBe(false);
    });
  });
});
