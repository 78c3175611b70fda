import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ProcctlError, SERVER_SECRET_ENV_NAMES } from '@genswarms/procctl';
import type { ExecWithSecretsSpec } from '@genswarms/procctl';
import { runCli } from '../src/index';
import { tempDir } from './support';

const FAKE = join(__dirname, 'fixtures', 'fake-server.cjs');

async function runUp(
  replaceProcess: ((spec: ExecWithSecretsSpec) => never) | undefined,
  cwd: string,
): Promise<{ code: number; stderr: string }> {
  const err = new PassThrough();
  let stderr = '';
  err.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const env = { GENSWARMS_HOME: join(cwd, 'home'), GENSWARMS_API_TOKEN: 'fg-token', PATH: '/usr/bin:/bin' };
  const code = await runCli(['up', '--foreground', '--port', '4123'], {
    env,
    cwd,
    stdout: new PassThrough(),
    stderr: err,
    serverMain: FAKE,
    ...(replaceProcess === undefined ? {} : { replaceProcess }),
  });
  return { code, stderr };
}

describe('genswarms up --foreground becomes the server instead of staying its parent', () => {
  const dir = tempDir('gs-cli-fg-');
  afterAll(() => dir.cleanup());

  it('replaces the process with the server entry, handing it the whole environment for execWithSecrets to split', async () => {
    const specs: ExecWithSecretsSpec[] = [];
    const r = await runUp((spec) => {
      specs.push(spec);
      throw new ProcctlError('syscall_failed', 'execve failed: EACCES');
    }, dir.path);
    expect(specs).toHaveLength(1);
    expect(specs[0]).toMatchObject({ file: process.execPath, argv: [process.execPath, FAKE], secretNames: SERVER_SECRET_ENV_NAMES });
    expect(specs[0]?.env).toMatchObject({ PORT: '4123', GENSWARMS_API_TOKEN: 'fg-token' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('foreground_failed');
    expect(r.stderr).not.toContain('fg-token');
  });

  it('refuses in-process (no way to replace the process) instead of running the server as a child', async () => {
    const r = await runUp(undefined, dir.path);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('foreground_unavailable');
  });
});
