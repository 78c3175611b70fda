import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { startTestSshd, testSshdUnavailable, type TestSshd } from '@genswarms/tools';
import { checkSshHost } from '../src/ssh/doctor-ssh';
import { cli, tempDir } from './support';

const skip = testSshdUnavailable();
if (skip !== null) console.warn(`ssh-doctor.spec skipped: ${skip}`);
const d = skip === null ? describe : describe.skip;
const UID = process.getuid?.() ?? 0;

d('doctor --ssh against a real sshd', () => {
  let sshd: TestSshd;
  let dir: ReturnType<typeof tempDir>;
  let kh: string;
  beforeAll(async () => {
    sshd = await startTestSshd();
    dir = tempDir('gs-ssh-doctor-');
    kh = path.join(dir.path, 'known_hosts');
  }, 30000);
  afterAll(async () => {
    await sshd?.stop();
    dir?.cleanup();
  });
  const target = () => `${sshd.user}@${sshd.host}:${sshd.port}`;
  const status = (checks: { name: string; status: string }[]) => Object.fromEntries(checks.map((c) => [c.name, c.status]));

  it('reports an unreachable host', async () => {
    const checks = await checkSshHost({ target: `${sshd.user}@127.0.0.1:1`, knownHosts: [kh] }, UID);
    expect(status(checks)).toEqual({ 'ssh: reachable': 'problem' });
  });

  it('reports an unknown host key and logs in nowhere', async () => {
    const checks = await checkSshHost({ target: target(), knownHosts: [kh], keyPath: sshd.userKeyPath }, UID);
    expect(status(checks)).toEqual({ 'ssh: reachable': 'ok', 'ssh: host key': 'problem' });
    expect(checks[1]?.detail).toContain('unknown');
  });

  it('with a known key and a key file, checks the remote xargs, tmux and bwrap', async () => {
    await fsp.writeFile(kh, `${sshd.knownHostsLine()}\n`);
    const checks = await checkSshHost({ target: target(), knownHosts: [kh], keyPath: sshd.userKeyPath }, UID);
    const s = status(checks);
    expect(s).toMatchObject({ 'ssh: reachable': 'ok', 'ssh: host key': 'ok', 'ssh: login': 'ok', 'ssh: remote xargs': 'ok' });
    expect(Object.keys(s)).toEqual(expect.arrayContaining(['ssh: remote tmux', 'ssh: remote bwrap']));
  });

  it('genswarms doctor --ssh adds the ssh lines (known_hosts from $GENSWARMS_HOME)', async () => {
    const home = path.join(dir.path, 'gshome');
    await fsp.mkdir(home, { mode: 0o700 });
    await fsp.writeFile(path.join(home, 'known_hosts'), `${sshd.knownHostsLine()}\n`);
    const env = { GENSWARMS_HOME: home, HOME: dir.path, PATH: '/usr/bin:/bin' };
    const r = await cli(['doctor', '--json', '--ssh', target(), '--ssh-key', sshd.userKeyPath], env);
    expect(r.code).toBe(0);
    const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string }[] }).checks;
    expect(status(checks.filter((c) => c.name.startsWith('ssh:')))).toMatchObject({ 'ssh: host key': 'ok', 'ssh: remote xargs': 'ok' });
  }, 60000);

  it('reports a changed host key as a problem', async () => {
    await sshd.restart({ newHostKey: true });
    await fsp.writeFile(
      kh,
      `${sshd.knownHostsLine().replace(/ .*/, '')} ${(await fsp.readFile(kh, 'utf8')).split(' ').slice(1).join(' ')}`,
    );
    const checks = await checkSshHost({ target: target(), knownHosts: [kh] }, UID);
    expect(checks.find((c) => c.name === 'ssh: host key')).toMatchObject({ status: 'problem', detail: expect.stringContaining('CHANGED') });
  }, 30000);
});
