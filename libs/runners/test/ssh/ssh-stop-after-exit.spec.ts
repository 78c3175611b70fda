/**
 * A client that exited by itself leaves nothing for `genswarms-ssh-ctl stop` to signal, so the stop skips it — and
 * with it the ctl's removal of the launch files. The env file holds the agent's secrets until the launcher reads it
 * (a launcher that fails before that leaves it): the stop removes it, the manifest and the xargs counts over SFTP.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { createSshRunner } from '../../src/lib/ssh/ssh-runner';
import type { RunnerContext, RunnerHandle, Runner } from '../../src/lib/port';
import { makeContext, makeSandboxDirs, makeSpec } from '../support';
import { startTestSshd, testSshdUnavailable, type TestSshd } from '@genswarms/tools';
import { runTurn } from './ssh-support';

const skip = testSshdUnavailable();
if (skip !== null) console.warn(`ssh-stop-after-exit.spec skipped: ${skip}`);
const d = skip === null ? describe : describe.skip;
const SH_CLIENT = path.join(__dirname, 'fixtures', 'sh-client.sh');

d('ssh stop after the client exited by itself', () => {
  let sshd: TestSshd;
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let ctx: RunnerContext;
  let runner: Runner;
  let h: RunnerHandle | undefined;

  beforeAll(async () => {
    sshd = await startTestSshd();
    dirs = makeSandboxDirs('gs-ssh-after-exit-');
    ctx = makeContext(dirs.home);
    runner = createSshRunner({ reconnectAttempts: 2, reconnectBaseMs: 50 });
  }, 30000);
  afterAll(async () => {
    if (h !== undefined) await fsp.rm(h.describe().remote?.dir ?? '', { recursive: true, force: true });
    await runner.close?.('shutdown');
    await sshd?.stop();
    dirs?.cleanup();
  }, 30000);

  it('removes the env file, the manifest and the xargs counts though the ctl is skipped', async () => {
    const knownHosts = path.join(dirs.root, 'known_hosts');
    await fsp.writeFile(knownHosts, `${sshd.knownHostsLine()}\n`);
    const spec = makeSpec({
      agent: 'early',
      backend: 'ssh',
      host: `${sshd.user}@${sshd.host}`,
      workspace: path.join(dirs.root, 'ws-early'),
      client: { command: ['/bin/sh', SH_CLIENT] },
      config: { env: { MY_SECRET: 'early-exit-secret' } },
      backendOpts: { port: sshd.port, key_path: sshd.userKeyPath, known_hosts: knownHosts },
    });
    const handle = await runner.start(runner.plan(spec, ctx), ctx);
    h = handle;
    const dir = handle.describe().remote?.dir ?? '';
    const exited = new Promise<unknown>((resolve) => handle.onExit((code) => resolve(code)));
    await expect(runTurn(handle, spec.workspace, 'exit')).rejects.toMatchObject({ code: 'runner_error' });
    expect(await exited).toBe(123); // the client's own exit, reported before any stop
    // what a launcher that failed before reading its env file leaves behind
    await fsp.writeFile(path.join(dir, 'env'), 'MY_SECRET=early-exit-secret\n', { mode: 0o600 });
    await handle.stop();
    const left = await fsp.readdir(dir);
    expect(left.filter((f) => ['env', 'launch.argv', 'launch.xargs'].includes(f))).toEqual([]);
    expect(left).toEqual(expect.arrayContaining(['home', 'workspace', 'client.log'])); // the agent's work stays
  }, 30000);
});
