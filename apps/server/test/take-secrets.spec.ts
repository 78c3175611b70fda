import type { ExecWithSecretsSpec, SecretHandoverRead } from '@genswarms/procctl';
import type { SecretOps } from '../src/boot/take-secrets';
import { takeServerSecrets } from '../src/boot/take-secrets';

/** A fake procctl: records calls; `exec` stands in for execve (throws, as a failed exec would). */
function fakeOps(opts: {
  addon: boolean;
  handover?: SecretHandoverRead;
  execFails?: boolean;
}): SecretOps & { calls: string[]; execs: ExecWithSecretsSpec[] } {
  const calls: string[] = [];
  const execs: ExecWithSecretsSpec[] = [];
  return {
    calls,
    execs,
    status: () => (opts.addon ? { kind: 'ok' } : { kind: 'missing', reason: 'procctl addon unavailable: test' }),
    setDumpable: (flag) => void calls.push(`setDumpable(${String(flag)})`),
    readHandover: async () => (calls.push('readHandover'), opts.handover ?? { kind: 'none' }),
    execWithSecrets: (spec) => {
      calls.push('exec');
      execs.push(spec);
      throw Object.assign(new Error('exec'), { code: opts.execFails === true ? 'syscall_failed' : 'replaced' });
    },
  };
}

const IO = { execPath: '/usr/bin/node', execArgv: ['--enable-source-maps'], argv: ['/usr/bin/node', '/srv/main.js', 'x'] };

describe('takeServerSecrets', () => {
  it('becomes non-dumpable before reading the handover, and re-executes when a secret is in the environment', async () => {
    const ops = fakeOps({ addon: true, handover: { kind: 'ok', secrets: { GENSWARMS_CONFIG_API_TOKEN: 'c' } } });
    const r = await takeServerSecrets({ ...IO, env: { PATH: '/bin', GENSWARMS_API_TOKEN: 't', GENSWARMS_SECRETS_FD: '3' } }, ops);
    expect(ops.calls).toEqual(['setDumpable(false)', 'readHandover', 'exec']);
    expect(ops.execs[0]).toMatchObject({
      file: '/usr/bin/node',
      argv: ['/usr/bin/node', '--enable-source-maps', '/srv/main.js', 'x'],
      extraSecrets: { GENSWARMS_CONFIG_API_TOKEN: 'c' },
    });
    expect(r).toMatchObject({ kind: 'refused', code: 1 });
  });

  it('takes handed-over secrets into the returned env only (no exec when the environment is clean)', async () => {
    const ops = fakeOps({ addon: true, handover: { kind: 'ok', secrets: { GENSWARMS_API_TOKEN: 't', GENSWARMS_LLM_API_KEY: 'k' } } });
    const r = await takeServerSecrets({ ...IO, env: { PATH: '/bin', GENSWARMS_SECRETS_FD: '3' } }, ops);
    expect(ops.calls).toEqual(['setDumpable(false)', 'readHandover']);
    expect(r).toEqual({ kind: 'ready', env: { PATH: '/bin', GENSWARMS_API_TOKEN: 't', GENSWARMS_LLM_API_KEY: 'k' } });
  });

  test.each<[string, Parameters<typeof fakeOps>[0], Record<string, string>, { kind: string; code?: number; line?: RegExp }]>([
    [
      'addon missing + token in env → refused (fail-closed)',
      { addon: false },
      { GENSWARMS_API_TOKEN: 't' },
      { kind: 'refused', code: 1, line: /cannot protect GENSWARMS_API_TOKEN: .*fail-closed/ },
    ],
    [
      'addon missing + key handed over → refused (fail-closed)',
      { addon: false, handover: { kind: 'ok', secrets: { GENSWARMS_LLM_API_KEY: 'k' } } },
      {},
      { kind: 'refused', code: 1, line: /cannot protect GENSWARMS_LLM_API_KEY/ },
    ],
    [
      'addon missing + an empty token variable → refused',
      { addon: false },
      { GENSWARMS_CONFIG_API_TOKEN: '' },
      { kind: 'refused', code: 1 },
    ],
    [
      'an invalid handover → refused with exit 2',
      { addon: true, handover: { kind: 'invalid', reason: 'payload is not JSON' } },
      {},
      { kind: 'refused', code: 2, line: /^genswarms: invalid GENSWARMS_SECRETS_FD: payload is not JSON$/ },
    ],
    [
      'a failed re-exec → refused, never a start with the secret exposed',
      { addon: true, execFails: true },
      { GENSWARMS_LLM_API_KEY: 'k' },
      { kind: 'refused', code: 1, line: /cannot re-execute without GENSWARMS_LLM_API_KEY .*syscall_failed/ },
    ],
  ])('%s', async (_label, opts, env, want) => {
    const r = await takeServerSecrets({ ...IO, env: { PATH: '/bin', ...env } }, fakeOps(opts));
    expect(r.kind).toBe(want.kind);
    if (r.kind !== 'refused') return;
    expect(r.code).toBe(want.code);
    if (want.line !== undefined) expect(r.line).toMatch(want.line);
    for (const v of ['t', 'k']) expect(r.line.split(/[\s:,(]/)).not.toContain(v);
  });

  it('starts without any secret and without the addon, with a warning', async () => {
    const r = await takeServerSecrets({ ...IO, env: { PATH: '/bin' } }, fakeOps({ addon: false }));
    expect(r).toMatchObject({ kind: 'ready', env: { PATH: '/bin' }, warning: expect.stringContaining('stays dumpable') });
  });
});
