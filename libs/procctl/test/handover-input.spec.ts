import { closeSync, openSync, writeSync } from 'node:fs';
import {
  decodeHandover,
  encodeHandover,
  execve,
  PROCCTL_ADDON_PATH,
  readSecretHandover,
  SERVER_SECRET_ENV_NAMES,
  splitSecrets,
} from '../src/index';
import type { ProcctlError } from '../src/index';

const NAMES = SERVER_SECRET_ENV_NAMES;

describe('decodeHandover refuses anything but a version-1 map of the expected names', () => {
  test.each<[string, string]>([
    ['not JSON', '{'],
    ['no version', '{"secrets":{}}'],
    ['version 2', '{"version":2,"secrets":{}}'],
    ['an extra key', '{"version":1,"secrets":{},"x":1}'],
    ['a __proto__ name', '{"version":1,"secrets":{"__proto__":"v"}}'],
    ['a lower-case name', '{"version":1,"secrets":{"path":"v"}}'],
    ['a name not asked for', '{"version":1,"secrets":{"GENSWARMS_HOME":"/x"}}'],
    ['a non-string value', '{"version":1,"secrets":{"GENSWARMS_API_TOKEN":1}}'],
    ['an array', '[]'],
  ])('%s', (_label, text) => {
    const r = decodeHandover(Buffer.from(text), NAMES);
    expect(r.kind).toBe('invalid');
    if (r.kind === 'invalid') expect(r.reason).not.toContain('/x');
  });

  it('round-trips the secrets (null-prototype map)', () => {
    const r = decodeHandover(encodeHandover({ GENSWARMS_API_TOKEN: 't', GENSWARMS_LLM_API_KEY: 'k' }), NAMES);
    expect(r).toEqual({ kind: 'ok', secrets: { GENSWARMS_API_TOKEN: 't', GENSWARMS_LLM_API_KEY: 'k' } });
    if (r.kind === 'ok') expect(Object.getPrototypeOf(r.secrets)).toBeNull();
  });
});

describe('readSecretHandover', () => {
  it('is none without GENSWARMS_SECRETS_FD', async () => {
    await expect(readSecretHandover({ GENSWARMS_API_TOKEN: 't' }, NAMES)).resolves.toEqual({ kind: 'none' });
  });

  test.each([[''], ['abc'], ['-1'], ['0'], ['2'], ['3 '], ['1e3'], ['9999999']])('refuses GENSWARMS_SECRETS_FD=%j', async (raw) => {
    await expect(readSecretHandover({ GENSWARMS_SECRETS_FD: raw }, NAMES)).resolves.toMatchObject({ kind: 'invalid' });
  });

  it('refuses a regular file descriptor', async () => {
    const fd = openSync(PROCCTL_ADDON_PATH, 'r');
    try {
      await expect(readSecretHandover({ GENSWARMS_SECRETS_FD: String(fd) }, NAMES)).resolves.toMatchObject({ kind: 'invalid' });
    } finally {
      closeSync(fd);
    }
  });

  it('reads a pipe to EOF and closes it', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the raw addon, to make a pipe in-process
    const [r, w] = (require(PROCCTL_ADDON_PATH) as { pipe(): [number, number] }).pipe();
    writeSync(w, encodeHandover({ GENSWARMS_CONFIG_API_TOKEN: 'c' }));
    closeSync(w);
    await expect(readSecretHandover({ GENSWARMS_SECRETS_FD: String(r) }, NAMES)).resolves.toEqual({
      kind: 'ok',
      secrets: { GENSWARMS_CONFIG_API_TOKEN: 'c' },
    });
    expect(() => closeSync(r)).toThrow(/EBADF/);
  });

  it('gives up on a writer that never closes', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the raw addon, to make a pipe in-process
    const [r, w] = (require(PROCCTL_ADDON_PATH) as { pipe(): [number, number] }).pipe();
    try {
      await expect(readSecretHandover({ GENSWARMS_SECRETS_FD: String(r) }, NAMES, { timeoutMs: 200 })).resolves.toMatchObject({
        kind: 'invalid',
        reason: expect.stringContaining('200 ms'),
      });
    } finally {
      closeSync(w);
    }
  });
});

describe('execve refuses arguments that cannot cross exec intact (checked before any syscall)', () => {
  test.each<[string, string, string[], Record<string, string>, number[]]>([
    ['a relative file', 'node', ['node'], {}, []],
    ['NUL in argv', '/usr/bin/true', ['a\0b'], {}, []],
    ['NUL in an env value', '/usr/bin/true', ['true'], { A: 'x\0y' }, []],
    ['= in an env name', '/usr/bin/true', ['true'], { 'A=B': 'x' }, []],
    ['a stdio fd to inherit', '/usr/bin/true', ['true'], {}, [1]],
    ['a fractional fd', '/usr/bin/true', ['true'], {}, [3.5]],
  ])('%s', (_label, file, argv, env, fds) => {
    expect(() => execve(file, argv, env, { inheritFds: fds })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }) as ProcctlError,
    );
  });
});

describe('splitSecrets', () => {
  it('moves exactly the named variables and keeps a null prototype', () => {
    const { clean, secrets } = splitSecrets(
      { PATH: '/bin', GENSWARMS_API_TOKEN: 't', GENSWARMS_HOME: '/h', GENSWARMS_LLM_API_KEY: '' },
      NAMES,
    );
    expect({ ...clean }).toEqual({ PATH: '/bin', GENSWARMS_HOME: '/h' });
    expect({ ...secrets }).toEqual({ GENSWARMS_API_TOKEN: 't', GENSWARMS_LLM_API_KEY: '' });
    expect(Object.getPrototypeOf(secrets)).toBeNull();
  });
});
