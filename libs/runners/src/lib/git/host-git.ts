import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';

/** The git the host runs: absolute, never looked up on PATH (an agent-writable PATH entry cannot shadow it). */
export const HOST_GIT_BINARY = '/usr/bin/git';
/** Longest a host git call may run (ms): a fetch of a large repository fits, a hung one is killed. */
export const HOST_GIT_TIMEOUT_MS = 120_000;
/** Longest a call that reads a large input may run (ms): index-pack of a 512 MiB pack, hash-object of a 1 GiB file. */
export const HOST_GIT_LONG_TIMEOUT_MS = 600_000;
/** Most bytes of stdout kept from one call; the rest is dropped and reported as `truncated`. */
export const HOST_GIT_STDOUT_MAX_BYTES = 16 * 1024 * 1024;
/** Most bytes of stderr kept (only for the failure message's first line). */
const HOST_GIT_STDERR_MAX_BYTES = 16 * 1024;
/** The empty tree: where the host's git reads `.gitattributes` from in a bare repository (none). */
/**
 * Every host `git fetch` starts with these: no tags, no FETCH_HEAD, no submodules, no auto-gc — the fetch writes
 * exactly the ref it names and runs nothing of its own.
 */
export const HOST_FETCH_FLAGS: readonly string[] = [
  'fetch',
  '--quiet',
  '--no-tags',
  '--no-write-fetch-head',
  '--no-recurse-submodules',
  '--no-auto-gc',
];

export const EMPTY_TREE_SHA = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * `-c` overrides on every host git call: whatever a repository's own config says (the operator's, or a mirror
 * fed with an agent's objects), nothing runs and nothing is looked up outside the call. Command-line config
 * wins over every file, and the keys are harmless to a git that does not know them.
 */
export const HOST_GIT_CONFIG: readonly (readonly [string, string])[] = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  ['core.askPass', ''],
  ['core.sshCommand', 'false'],
  ['core.alternateRefsCommand', ''],
  ['core.quotePath', 'true'],
  ['diff.external', ''],
  ['diff.noprefix', 'false'],
  ['diff.relative', 'false'],
  ['color.ui', 'false'],
  ['attr.tree', EMPTY_TREE_SHA],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['fetch.writeCommitGraph', 'false'],
  ['fetch.prune', 'false'],
  ['fetch.recurseSubmodules', 'false'],
  ['submodule.recurse', 'false'],
  ['protocol.allow', 'never'],
  ['protocol.file.allow', 'always'],
  ['uploadpack.packObjectsHook', ''],
  ['credential.helper', ''],
  ['init.templateDir', ''],
  ['safe.bareRepository', 'all'],
  ['transfer.fsckObjects', 'true'],
];

/** The whole argv of one host git call (pure): the binary, the overrides, then `args`. */
export function buildHostGitArgv(args: readonly string[], gitDir?: string): readonly string[] {
  const config = HOST_GIT_CONFIG.flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  return [HOST_GIT_BINARY, '--no-replace-objects', ...(gitDir === undefined ? [] : [`--git-dir=${gitDir}`]), ...config, ...args];
}

/**
 * The whole environment of a host git call (pure): no system or global config, no system attributes, an empty
 * HOME (so no `~/.gitconfig` or XDG config), no prompt, no pager, and nothing inherited (no GIT_* from the
 * server's own environment: GIT_DIR, GIT_CONFIG_PARAMETERS, GIT_EXEC_PATH would all redirect it).
 */
export function buildHostGitEnv(emptyHome: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    PATH: '/usr/bin:/bin',
    HOME: emptyHome,
    XDG_CONFIG_HOME: path.join(emptyHome, 'xdg'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_SYSTEM: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'false',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    TZ: 'UTC',
    ...extra,
  };
}

export interface HostGitOptions {
  /** `--git-dir`: the repository the call works on (host-owned, or the operator's). */
  readonly gitDir?: string;
  /** Working directory (default: the empty HOME, never an agent's tree). */
  readonly cwd?: string;
  /** An empty host-owned directory used as HOME (created 0700 when missing). */
  readonly emptyHome: string;
  /** What git reads on stdin; a stream is piped (a large file is never held in memory). */
  readonly input?: Buffer | string | Readable;
  readonly env?: Readonly<Record<string, string>>;
  readonly maxStdoutBytes?: number;
  readonly timeoutMs?: number;
  /** Exit codes that are answers, not failures (e.g. 1 for `cat-file -e`). */
  readonly okCodes?: readonly number[];
}

export interface HostGitResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly truncated: boolean;
}

/**
 * Runs one host git call: argv only, `shell: false`, the built env, bounded output and time. A non-zero exit
 * not in `okCodes`, a timeout or a spawn failure → `git_failed` (message: the first stderr line, control
 * characters removed).
 */
export function runHostGit(args: readonly string[], opts: HostGitOptions): Promise<HostGitResult> {
  mkdirSync(opts.emptyHome, { recursive: true, mode: 0o700 });
  const argv = buildHostGitArgv(args, opts.gitDir);
  const max = opts.maxStdoutBytes ?? HOST_GIT_STDOUT_MAX_BYTES;
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), {
      shell: false,
      cwd: opts.cwd ?? opts.emptyHome,
      env: buildHostGitEnv(opts.emptyHome, opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let truncated = false;
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? HOST_GIT_TIMEOUT_MS);
    child.stdout.on('data', (b: Buffer) => {
      if (outBytes >= max) return void (truncated = true);
      const room = max - outBytes;
      if (b.length > room) truncated = true;
      out.push(b.subarray(0, room));
      outBytes += Math.min(b.length, room);
    });
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < HOST_GIT_STDERR_MAX_BYTES) err += b.toString('utf8');
    });
    child.stdin.on('error', () => undefined); // expected: git may exit before reading all input; the exit code says why
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new RunnerError('git_failed', `git could not be started: ${e.message}`, { cause: e }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const exit = code ?? -1;
      if (signal === null && (exit === 0 || (opts.okCodes ?? []).includes(exit))) {
        resolve({ code: exit, stdout: Buffer.concat(out), truncated });
        return;
      }
      const line = err.split('\n').find((l) => l.trim() !== '') ?? (signal === null ? `exit ${exit}` : `killed by ${signal}`);
      reject(new RunnerError('git_failed', `git ${args[0] ?? ''} failed: ${printable(line)}`, { details: { exit } }));
    });
    if (opts.input instanceof Readable) {
      opts.input.on('error', () => child.kill('SIGKILL')); // a failed read must not look like a short file: git is killed, the call fails
      opts.input.pipe(child.stdin);
    } else child.stdin.end(opts.input ?? '');
  });
}

/** A line safe to log or show: control characters replaced, at most 300 characters. */
export function printable(line: string): string {
  return line.replace(/[\p{Cc}]/gu, '?').slice(0, 300);
}
