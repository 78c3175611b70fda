import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { COMMANDS } from '../src/index';
import type { CommandDeps } from '../src/index';
import { commandTree } from '../src/completion/command-tree';
import { cli, tempDir } from './support';

// Every command's --help shows examples; `completion bash|zsh` is generated from the commander tree and works in bash.
const BASH = ['/usr/bin/bash', '/bin/bash'].find((p) => spawnSync(p, ['--version']).status === 0);
const ZSH = ['/usr/bin/zsh', '/bin/zsh'].find((p) => spawnSync(p, ['--version']).status === 0);
if (ZSH === undefined) console.warn('SKIPPING the zsh completion run: zsh is not installed (apt-get install zsh)');
/** Commands other helpers own (their help is theirs to write). */
const NOT_OURS: ReadonlySet<string> = new Set(['image', 'ssh']);

function tree(): ReturnType<typeof commandTree> {
  const program = new Command('genswarms').version('0', '-V, --version');
  const deps = { ctx: {}, api: () => undefined, action: () => () => Promise.resolve() } as unknown as CommandDeps;
  for (const m of COMMANDS) m.register(program, deps);
  return commandTree(program);
}

describe('help examples', () => {
  const paths = tree()
    .map((n) => n.path)
    .filter((p) => p !== '' && p !== 'help' && !NOT_OURS.has(p.split(' ')[0] ?? ''));
  test.each(paths)('genswarms %s --help shows an example', async (path) => {
    const r = await cli([...path.split(' '), '--help'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nExamples?:\n {2}[^\n]*genswarms\b/);
  });
});

describe('shell completion', () => {
  const dir = tempDir('gs-cli-completion-');
  let bashFile = '';
  beforeAll(async () => {
    const r = await cli(['completion', 'bash'], {});
    expect(r.code).toBe(0);
    bashFile = join(dir.path, 'genswarms.bash');
    writeFileSync(bashFile, r.stdout);
    writeFileSync(join(dir.path, 'swarm.yaml'), 'name: x\n');
  });
  afterAll(() => dir.cleanup());

  /** The candidates bash offers after `words` (the last one is being completed), in `dir`. */
  function complete(words: string[]): string[] {
    const script = `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _genswarms; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = spawnSync(BASH ?? 'bash', ['--norc', '--noprofile', '-c', script, 'bash', bashFile, ...words], {
      cwd: dir.path,
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin' },
    });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter((w) => w !== '');
  }

  (BASH === undefined ? it.skip : it)('registers with complete -F for genswarms', () => {
    const r = spawnSync(BASH ?? 'bash', ['--norc', '--noprofile', '-c', 'source "$1"; complete -p genswarms', 'bash', bashFile], {
      encoding: 'utf8',
    });
    expect(r.stdout.trim()).toBe('complete -o default -F _genswarms genswarms');
  });

  (BASH === undefined ? it.skip : it)('offers every top-level command of the commander tree, and --version', () => {
    const top = tree().find((n) => n.path === '');
    expect(new Set(complete(['genswarms', '']))).toEqual(new Set(top?.subcommands.concat(top.flags)));
    expect(complete(['genswarms', '']).length).toBeGreaterThan(25);
  });

  (BASH === undefined ? test.skip : test).each<[string[], string[]]>([
    [['genswarms', 'ag'], ['agents']],
    [
      ['genswarms', 'agents', ''],
      ['list', 'show', 'add', 'remove', '--help'],
    ],
    [['genswarms', 'agents', 'add', 'demo', '--c'], ['--connect']],
    [['genswarms', 'status', '--j'], ['--json']],
    [['genswarms', 'events', '--limit', '5', '--j'], ['--json']],
    [['genswarms', 'topology', 'patch', 'demo', '--a'], ['--add']],
    [['genswarms', 'completion', 'x'], []],
    [['genswarms', 'start', 'sw'], ['swarm.yaml']],
    [['genswarms', 'config', 'validate', 's'], ['swarm.yaml']],
    [['genswarms', 'task', '--', 'bogus'], []],
  ])('%j → %j', (words, expected) => {
    expect(complete(words)).toEqual(expected);
  });

  /** What the zsh script offers for `words` (cursor on the last), with zsh's completion builtins stubbed to print. */
  function completeZsh(zshFile: string, words: string[]): string[] {
    const stubs =
      'compdef() { print -r -- "compdef $*" }; compadd() { [[ $1 == -a ]] && print -rl -- ${(P)2} }; _files() { print -r -- "<files>" }';
    const script = `${stubs}; source "$1"; shift; words=("$@"); CURRENT=$#; _genswarms`;
    const r = spawnSync(ZSH ?? 'zsh', ['-f', '-c', script, 'zsh', zshFile, ...words], {
      cwd: dir.path,
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin' },
    });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter((w) => w !== '' && !w.startsWith('compdef '));
  }

  (ZSH === undefined ? test.skip : test).each<[string[], string[]]>([
    [
      ['genswarms', 'agents', ''],
      ['list', 'show', 'add', 'remove', '--help'],
    ],
    [['genswarms', 'events', '--limit', ''], ['<files>']],
    [
      ['genswarms', 'start', 'sw'],
      ['--no-wait', '--json', '--help', '<files>'],
    ],
  ])('zsh: %j → %j (compadd filters by prefix itself)', async (words, expected) => {
    const zshFile = join(dir.path, '_genswarms');
    writeFileSync(zshFile, (await cli(['completion', 'zsh'], {})).stdout);
    expect(completeZsh(zshFile, words)).toEqual(expected);
  });

  it('zsh gets the same generated tables behind #compdef', async () => {
    const zsh = (await cli(['completion', 'zsh'], {})).stdout;
    const bash = (await cli(['completion', 'bash'], {})).stdout;
    expect(zsh.startsWith('#compdef genswarms\n')).toBe(true);
    const tables = (s: string): string => s.slice(s.indexOf('_genswarms_words() {'), s.indexOf('\n_genswarms() {'));
    expect(tables(zsh)).toBe(tables(bash));
    expect(zsh).toContain('compdef _genswarms genswarms');
  });

  it('an unknown shell is a usage error', async () => {
    const r = await cli(['completion', 'fish'], {});
    expect([r.code, r.stderr]).toEqual([2, 'genswarms: usage: the shell must be bash or zsh\n']);
  });
});
