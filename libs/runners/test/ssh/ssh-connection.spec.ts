import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { fingerprintOf, hashKnownHostName, parseKnownHosts } from '../../src/lib/ssh/known-hosts';
import { openSshConnection, type SshEndpoint } from '../../src/lib/ssh/ssh-connection';
import { readPrivateKey } from '../../src/lib/ssh/ssh-key';
import { SshPool } from '../../src/lib/ssh/ssh-pool';
import { createTestNetns, startTestSshd, testNetnsUnavailable, testSshdUnavailable, type TestSshd } from '@genswarms/tools';

const skip = testSshdUnavailable();
if (skip !== null) console.warn(`ssh-connection.spec skipped: ${skip}`);
const d = skip === null ? describe : describe.skip;
const UID = process.getuid?.() ?? 0;

async function runConstant(ep: SshEndpoint, command: string): Promise<string> {
  const conn = await openSshConnection(ep);
  try {
    const ch = await conn.exec(command);
    let out = '';
    ch.on('data', (b: Buffer) => (out += b.toString()));
    await new Promise((r) => ch.on('close', r));
    return out;
  } finally {
    conn.close();
  }
}

d('ssh connection against a real sshd (loopback)', () => {
  let sshd: TestSshd;
  let key: Buffer;
  beforeAll(async () => {
    sshd = await startTestSshd();
    key = await readPrivateKey(sshd.userKeyPath, UID);
  }, 30000);
  afterAll(async () => {
    await sshd?.stop();
  });
  const ep = (knownHosts: string, extra: Partial<SshEndpoint> = {}): SshEndpoint => ({
    user: sshd.user,
    host: sshd.host,
    port: sshd.port,
    privateKey: key,
    knownHosts: parseKnownHosts(knownHosts).entries,
    silentlyAcceptHosts: false,
    ...extra,
  });
  const fingerprint = () => fingerprintOf(Buffer.from(sshd.hostKeyLine().split(' ')[1] ?? '', 'base64'));

  it('connects to a known host and runs a constant command', async () => {
    expect(await runConstant(ep(sshd.knownHostsLine()), 'echo connected')).toBe('connected\n');
  });

  it('connects through a hashed known_hosts entry', async () => {
    const name = `[${sshd.host}]:${sshd.port}`;
    const line = `${hashKnownHostName(name, Buffer.alloc(20, 3))} ${sshd.hostKeyLine()}`;
    expect(await runConstant(ep(line), 'echo hashed')).toBe('hashed\n');
  });

  it('refuses an unknown host key with its fingerprint, and sends nothing (no auth attempt reaches sshd)', async () => {
    const before = sshd.log().length;
    await expect(openSshConnection(ep(''))).rejects.toMatchObject({
      code: 'ssh_host_key_unknown',
      details: { fingerprint: fingerprint() },
    });
    await new Promise((r) => setTimeout(r, 200));
    const log = sshd.log().slice(before);
    expect(log).not.toMatch(/authenticating user|Accepted publickey|Failed publickey|invalid user/);
  });

  it('refuses a port-22 entry for a server on another port (wrong port entry)', async () => {
    await expect(openSshConnection(ep(`${sshd.host} ${sshd.hostKeyLine()}`))).rejects.toMatchObject({ code: 'ssh_host_key_unknown' });
  });

  it('refuses a revoked key', async () => {
    const text = `${sshd.knownHostsLine()}\n@revoked * ${sshd.hostKeyLine()}`;
    await expect(openSshConnection(ep(text))).rejects.toMatchObject({ code: 'ssh_host_key_revoked' });
  });

  it('silently_accept_hosts connects to an unknown host and reports it unverified', async () => {
    const conn = await openSshConnection(ep('', { silentlyAcceptHosts: true }));
    expect(conn.hostKey).toEqual({ fingerprint: fingerprint(), verified: false });
    conn.close();
  });

  it('refuses a user key the server does not accept (ssh_auth_failed)', async () => {
    const other = path.join(sshd.dir, 'other_key');
    execFileSync('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other]);
    const wrong = await readPrivateKey(other, UID);
    await expect(openSshConnection(ep(sshd.knownHostsLine(), { privateKey: wrong }))).rejects.toMatchObject({ code: 'ssh_auth_failed' });
  });

  it('the pool shares one connection per endpoint and reconnects after a drop', async () => {
    const pool = new SshPool({ baseDelayMs: 50 });
    const e = ep(sshd.knownHostsLine());
    const [a, b] = await Promise.all([pool.get(e), pool.get(e)]);
    expect(a).toBe(b);
    const closed = new Promise((r) => a.onClose(() => r(null)));
    sshd.killAll();
    await closed;
    await sshd.restart();
    const c = await pool.get({ ...e, port: sshd.port });
    expect(c).not.toBe(a);
    expect(c.isOpen()).toBe(true);
    await pool.close();
  }, 30000);

  it('a changed host key (sshd restarted with a new key) is a mismatch naming both fingerprints', async () => {
    const oldLine = sshd.knownHostsLine();
    const oldFp = fingerprint();
    await sshd.restart({ newHostKey: true });
    const err = await openSshConnection(ep(oldLine.replace(/:[0-9]+ /, `:${sshd.port} `))).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ssh_host_key_mismatch', details: { fingerprint: fingerprint(), expected: [oldFp] } });
  }, 30000);

  it('the pool never lends a connection verified against another known_hosts', async () => {
    const pool = new SshPool({ baseDelayMs: 10 });
    const trusted = ep(sshd.knownHostsLine());
    await pool.get(trusted);
    await expect(pool.get({ ...trusted, knownHosts: [] })).rejects.toMatchObject({ code: 'ssh_host_key_unknown' });
    await pool.close();
  });

  it('the pool gives up after bounded attempts when the host is gone (ssh_unreachable)', async () => {
    const pool = new SshPool({ attempts: 2, baseDelayMs: 10 });
    await expect(pool.get(ep('', { port: 1 }))).rejects.toMatchObject({ code: 'ssh_unreachable' });
    await pool.close();
  });
});

d('ssh private key rules', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fsp.mkdtemp('/tmp/gs-sshkey-');
    await fsp.writeFile(path.join(dir, 'ok'), 'k', { mode: 0o600 });
    await fsp.writeFile(path.join(dir, 'world'), 'k', { mode: 0o644 });
    await fsp.chmod(path.join(dir, 'world'), 0o644);
    await fsp.writeFile(path.join(dir, 'group'), 'k', { mode: 0o640 });
    await fsp.chmod(path.join(dir, 'group'), 0o640);
    await fsp.symlink(path.join(dir, 'ok'), path.join(dir, 'link'));
    await fsp.mkdir(path.join(dir, 'dir'));
  });
  afterAll(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });
  it('reads a 0600 key of ours', async () => {
    expect((await readPrivateKey(path.join(dir, 'ok'), UID)).toString()).toBe('k');
  });
  test.each([
    ['a symlink', 'link'],
    ['world-readable', 'world'],
    ['group-readable', 'group'],
    ['a directory', 'dir'],
    ['missing', 'missing'],
    ['relative', '../x'],
  ])('refuses a key_path that is %s', async (_n, name) => {
    const p = name.startsWith('..') ? name : path.join(dir, name);
    await expect(readPrivateKey(p, UID)).rejects.toMatchObject({ code: 'ssh_key_unsafe' });
  });
  it('refuses a key owned by another uid', async () => {
    await expect(readPrivateKey(path.join(dir, 'ok'), UID + 1)).rejects.toMatchObject({ code: 'ssh_key_unsafe' });
  });
});

const nsSkip = skip ?? testNetnsUnavailable();
(nsSkip === null ? describe : describe.skip)('ssh connection to a non-loopback address (sshd in a network namespace)', () => {
  let ns: ReturnType<typeof createTestNetns>;
  let sshd: TestSshd;
  beforeAll(async () => {
    ns = createTestNetns();
    sshd = await startTestSshd({ listen: ns.nsAddr, netns: ns.name });
  }, 30000);
  afterAll(async () => {
    await sshd?.stop();
    ns?.remove();
  });
  it('verifies the host key and runs a command on 10.x', async () => {
    const out = await runConstant(
      {
        user: sshd.user,
        host: ns.nsAddr,
        port: sshd.port,
        privateKey: await readPrivateKey(sshd.userKeyPath, UID),
        knownHosts: parseKnownHosts(sshd.knownHostsLine()).entries,
        silentlyAcceptHosts: false,
      },
      'cat /proc/net/fib_trie',
    );
    expect(out).toContain(ns.nsAddr); // the command ran inside the namespace, reached over the veth
    expect(out).not.toContain(ns.hostAddr);
  }, 30000);
});
if (nsSkip !== null && skip === null) console.warn(`ssh netns spec skipped: ${nsSkip}`);
