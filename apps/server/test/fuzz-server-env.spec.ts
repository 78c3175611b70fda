/**
 * Fuzz target `server-env` (docs/reliability.md "Fuzzing"): the environment at server start through the
 * path `runMain` takes before anything listens — `readTokenFiles` (the `*_FILE` tokens), then
 * `loadServerConfig` — with every documented variable set to valid, hostile or random values. Criteria:
 * never a throw (a crash at boot prints a stack), a refusal is exactly one line
 * `genswarms: invalid <VARIABLE>…` with no stack trace, and no refusal line carries a token or key value.
 * GENSWARMS_HOME is only ever a path inside this spec's temp dir (the loader creates and chmods it).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { HOSTILE_STRINGS, replayFuzzRegressions, runFuzzTarget } from '@genswarms/tools';
import type { FuzzTarget } from '@genswarms/tools';
import { loadServerConfig } from '../src/index';
import { readTokenFiles } from '../src/boot/token-files';

/** Every secret value the generator uses contains this, so a leak into a refusal line is found by search. */
const CANARY = 'CANARY7f3q';
const root = realpathSync(mkdtempSync(join(tmpdir(), 'gs-fuzz-env-')));
const files = {
  token: join(root, 'token'),
  empty: join(root, 'empty'),
  big: join(root, 'big'),
  link: join(root, 'link'),
  fifo: join(root, 'fifo'),
  dir: join(root, 'dir'),
};
beforeAll(() => {
  writeFileSync(files.token, `${CANARY}-file-token\n`, { mode: 0o600 });
  writeFileSync(files.empty, '', { mode: 0o600 });
  writeFileSync(files.big, `${CANARY}${'x'.repeat(5000)}`, { mode: 0o600 });
  symlinkSync(files.token, files.link);
  mkdirSync(files.dir);
  spawnSync('/usr/bin/mkfifo', ['-m', '0600', files.fifo], { shell: false, stdio: 'ignore' });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const str = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS.filter((s) => !s.includes('/'))),
  fc.string({ maxLength: 30 }),
  fc.constant(''),
  fc.constant('  '),
);
const secret = fc.oneof(
  fc.constant(`${CANARY}-secret`),
  fc.constant(` ${CANARY} `),
  str.map((s) => `${CANARY}${s}`),
);
const pathInside = fc.constantFrom('home-a', 'home-b/c', join(root, 'home-c'), files.token, files.dir, 'a\u0000b', '.', 'x/../home-d');

/** Per variable: values a valid config uses, then hostile and random ones. */
const VALUES: Record<string, fc.Arbitrary<string>> = {
  PORT: fc.oneof(fc.constantFrom('0', '4000', '65535', '65536', '-1', '1e3', '0x10', ' 80 ', '08'), str),
  GENSWARMS_HTTP_IP: fc.oneof(
    fc.constantFrom('127.0.0.1', '::1', '0.0.0.0', '::', '256.1.1.1', 'localhost', '1.2.3', 'fe80::1%eth0', '[::1]'),
    str,
  ),
  GENSWARMS_MAX_AGENTS_PER_SWARM: fc.oneof(fc.constantFrom('1', '100', '100000', '100001', '0', '007', '1.5'), str),
  GENSWARMS_LOG_LEVEL: fc.oneof(fc.constantFrom('debug', 'info', 'warn', 'error', 'INFO', 'trace', 'silly'), str),
  GENSWARMS_LLM_ENDPOINT: fc.oneof(
    fc.constantFrom(
      'http://127.0.0.1:9/v1',
      'https://api.example.com/v1',
      'ftp://x',
      'http://user:pw@h/v1',
      'http://[::1',
      'file:///etc/passwd',
    ),
    str,
  ),
  GENSWARMS_ALLOWED_ENDPOINTS: fc.oneof(
    fc.constantFrom('api.example.com:443', '*.example.com:443', '*:*', 'h:0', 'h:99999', 'a b', ',,,'),
    str,
  ),
  GENSWARMS_LLM_API_KEY: secret,
  GENSWARMS_API_TOKEN: secret,
  GENSWARMS_CONFIG_API_TOKEN: secret,
  GENSWARMS_API_TOKEN_FILE: fc.oneof(
    fc.constantFrom(...Object.values(files), '/dev/zero', '/proc/self/environ', '/nonexistent/t', 'relative/t', `${root}/../x`, `${root}/`),
    str,
  ),
  GENSWARMS_CONFIG_API_TOKEN_FILE: fc.oneof(fc.constantFrom(files.token, files.empty, files.fifo, files.link, '/dev/null'), str),
  GENSWARMS_CORS_ORIGINS: fc.oneof(
    fc.constantFrom('http://localhost:5173', '*', 'null', 'http://a,https://b', 'javascript:x', 'http://a/path'),
    str,
  ),
  GENSWARMS_SWARM_CONFIG_DIR: fc.oneof(fc.constantFrom(root, files.dir, files.token, '/nonexistent', 'rel/dir'), str),
  GENSWARMS_AGENT_UID: fc.oneof(fc.constantFrom('1000', '0', '-1', '2147483648', '65534', '1e3'), str),
  GENSWARMS_AGENT_GID: fc.oneof(fc.constantFrom('1000', '0', '2147483647', 'x'), str),
  GENSWARMS_HOME: pathInside,
  GENSWARMS_SKILLS_ROOT: fc.oneof(fc.constantFrom('skills', root), str),
  GENSWARMS_WORKSPACE_ROOTS: fc.oneof(
    fc.constantFrom(root, `${root},${files.dir}`, '/', '/etc', 'rel', ',', `${root}\0x`, files.token),
    str,
  ),
};

const env: fc.Arbitrary<Record<string, string>> = fc
  .subarray(Object.keys(VALUES), { maxLength: 8 })
  .chain((keys) => fc.tuple(...keys.map((k) => (VALUES[k] as fc.Arbitrary<string>).map((v) => [k, v] as const))))
  .map((pairs) => Object.fromEntries(pairs));

function checkLine(line: string): void {
  if (!/^genswarms: invalid [A-Z_]+/.test(line))
    throw new Error(`refusal line of an unexpected form: ${JSON.stringify(line.slice(0, 200))}`);
  if (line.includes('\n')) throw new Error(`refusal is more than one line: ${JSON.stringify(line.slice(0, 200))}`);
  if (line.includes(CANARY)) throw new Error(`a refusal line carries a secret value: ${JSON.stringify(line.slice(0, 200))}`);
}

const target: FuzzTarget<Record<string, string>> = {
  name: 'server-env',
  arbitrary: env,
  async check(vars) {
    const home = vars['GENSWARMS_HOME'];
    if (home !== undefined && home.includes('..')) return; // never let the loader chmod a directory outside root
    const filed = await readTokenFiles(vars);
    if (filed.kind === 'invalid') return checkLine(filed.line);
    const loaded = await loadServerConfig(
      { ...vars, ...filed.tokens },
      { cwd: root, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 },
    );
    if (loaded.kind === 'invalid') checkLine(loaded.line);
  },
};

describe('fuzz: server-env (readTokenFiles + loadServerConfig at start)', () => {
  it('loads a valid environment (the fuzz inputs reach the whole loader)', async () => {
    const loaded = await loadServerConfig({ GENSWARMS_HOME: 'home-ok', PORT: '4000' }, { cwd: root, uid: process.getuid?.() ?? 0 });
    expect(loaded.kind).toBe('ok');
  });

  it('replays every saved failing case', async () => {
    expect(await replayFuzzRegressions(target)).toEqual([]);
  });

  it('generated environments: no throw, one refusal line without stack or secret', async () => {
    expect((await runFuzzTarget(target)).failure).toBeUndefined();
  });
});
