import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { fingerprintOf, loadKnownHosts, verifyHostKey } from '@genswarms/runners';
import { startTestSshd, testSshdUnavailable, type TestSshd } from '@genswarms/tools';
import { cli, tempDir } from './support';

const skip = testSshdUnavailable();
if (skip !== null) console.warn(`ssh-trust.spec skipped: ${skip}`);
const d = skip === null ? describe : describe.skip;

d('genswarms ssh trust / keys against a real sshd', () => {
  let sshd: TestSshd;
  let dir: ReturnType<typeof tempDir>;
  let env: Record<string, string>;
  let fp: string;
  let target: string;
  const file = () => path.join(dir.path, 'home', 'known_hosts');

  beforeAll(async () => {
    sshd = await startTestSshd();
    dir = tempDir('gs-ssh-cli-');
    env = { GENSWARMS_HOME: path.join(dir.path, 'home'), HOME: dir.path };
    fp = fingerprintOf(Buffer.from(sshd.hostKeyLine().split(' ')[1] ?? '', 'base64'));
    target = `${sshd.user}@${sshd.host}:${sshd.port}`;
  }, 30000);
  afterAll(async () => {
    await sshd?.stop();
    dir?.cleanup();
  });

  it('shows the fingerprint and writes nothing without confirmation', async () => {
    const r = await cli(['ssh', 'trust', target], env, { stdin: 'no\n' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(fp);
    expect(r.stderr).toContain('not_confirmed');
    await expect(fsp.readFile(file(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a --fingerprint that does not match, writing nothing', async () => {
    const wrong = `SHA256:${'A'.repeat(43)}`;
    const r = await cli(['ssh', 'trust', target, '--fingerprint', wrong], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('fingerprint_mismatch');
    await expect(fsp.readFile(file(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test.each(['u@h;id', 'u@-oProxyCommand=sh', '-oProxyCommand=sh', 'u@h:0'])('refuses the target %s as usage', async (bad) => {
    expect((await cli(['ssh', 'trust', bad], env)).code).toBe(2);
  });

  it('writes a hashed 0600 entry after "yes", which the ssh backend then trusts', async () => {
    const r = await cli(['ssh', 'trust', target], env, { stdin: 'yes\n' });
    expect(r.code).toBe(0);
    const text = await fsp.readFile(file(), 'utf8');
    expect(text).toMatch(/^\|1\|/);
    expect(text).not.toContain(sshd.host);
    expect((await fsp.stat(file())).mode & 0o777).toBe(0o600);
    const key = Buffer.from(sshd.hostKeyLine().split(' ')[1] ?? '', 'base64');
    expect(verifyHostKey(await loadKnownHosts([file()]), sshd.host, sshd.port, key).kind).toBe('trusted');
    expect((await cli(['ssh', 'trust', target], env)).stdout).toContain('already trusted');
  });

  it('ssh keys lists the trusted key by fingerprint (the hashed name stays hashed)', async () => {
    const r = await cli(['ssh', 'keys', '--json'], env);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { keys: { fingerprint: string; hosts: string[] }[] };
    expect(out.keys).toEqual([expect.objectContaining({ fingerprint: fp, hosts: ['(hashed)'] })]);
  });

  it('refuses to trust a host whose key changed (sshd re-keyed): mismatch, file unchanged', async () => {
    const before = await fsp.readFile(file(), 'utf8');
    await sshd.restart({ newHostKey: true });
    const r = await cli(['ssh', 'trust', `${sshd.user}@${sshd.host}:${sshd.port}`, '--fingerprint', fp], env);
    if (sshd.port === Number(target.split(':').pop())) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('ssh_host_key_mismatch');
    }
    expect(await fsp.readFile(file(), 'utf8')).toBe(before);
  }, 30000);
});
