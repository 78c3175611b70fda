import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fingerprintOf, hashKnownHostName, keyTypeOfBlob, parseKnownHosts } from '../../src/lib/ssh/known-hosts';
import { hostKeyError, loadKnownHosts, verifyHostKey } from '../../src/lib/ssh/host-key-verify';

const SSH_KEYGEN = '/usr/bin/ssh-keygen';

interface Key {
  readonly line: string; // "type base64"
  readonly blob: Buffer;
  readonly fingerprint: string; // as ssh-keygen -l prints it
}

let dir: string;
const keys: Record<'a' | 'b' | 'c', Key> = {} as never;

async function makeKey(name: string, type: string): Promise<Key> {
  const file = path.join(dir, name);
  execFileSync(SSH_KEYGEN, ['-q', '-t', type, '-N', '', '-C', '', '-f', file], { stdio: 'ignore' });
  const pub = (await fsp.readFile(`${file}.pub`, 'utf8')).trim().split(' ');
  const fp = execFileSync(SSH_KEYGEN, ['-l', '-E', 'sha256', '-f', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1] ?? '';
  return { line: `${pub[0]} ${pub[1]}`, blob: Buffer.from(pub[1] ?? '', 'base64'), fingerprint: fp };
}

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'gs-kh-'));
  keys.a = await makeKey('a', 'ed25519');
  keys.b = await makeKey('b', 'ed25519');
  keys.c = await makeKey('c', 'ecdsa');
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

/** OpenSSH's own hashing of a file (`ssh-keygen -H`), so our HMAC match is checked against the real tool. */
async function hashedByOpenSsh(text: string): Promise<string> {
  const file = path.join(dir, `kh-${Math.random().toString(16).slice(2)}`);
  await fsp.writeFile(file, text, { mode: 0o600 });
  execFileSync(SSH_KEYGEN, ['-H', '-f', file], { stdio: 'ignore' });
  return fsp.readFile(file, 'utf8');
}

describe('fingerprints and blobs', () => {
  it('prints SHA256 fingerprints exactly as ssh-keygen -l does', () => {
    for (const k of Object.values(keys)) expect(fingerprintOf(k.blob)).toBe(k.fingerprint);
  });
  it('reads the key type from the blob', () => {
    expect(keyTypeOfBlob(keys.a.blob)).toBe('ssh-ed25519');
    expect(keyTypeOfBlob(keys.c.blob)).toBe('ecdsa-sha2-nistp256');
    expect(keyTypeOfBlob(Buffer.from([0, 0, 0, 200, 1]))).toBeNull();
  });
});

describe('verifyHostKey: the hostile table', () => {
  const v = (text: string, host: string, port: number, offered: Key) =>
    verifyHostKey(parseKnownHosts(text).entries, host, port, offered.blob);

  test.each<[string, () => string, string, number, 'a' | 'b' | 'c', string]>([
    ['a listed key is trusted', () => `box ${keys.a.line}`, 'box', 22, 'a', 'trusted'],
    ['an empty file knows nothing', () => '', 'box', 22, 'a', 'unknown'],
    ["another host's entry is unknown", () => `other ${keys.a.line}`, 'box', 22, 'a', 'unknown'],
    ['a changed key is a mismatch', () => `box ${keys.a.line}`, 'box', 22, 'b', 'mismatch'],
    ['a known key of another type still refuses the offered one', () => `box ${keys.c.line}`, 'box', 22, 'a', 'mismatch'],
    ['@revoked wins over a plain entry', () => `box ${keys.a.line}\n@revoked box ${keys.a.line}`, 'box', 22, 'a', 'revoked'],
    ['@revoked * applies to every host', () => `box ${keys.a.line}\n@revoked * ${keys.a.line}`, 'box', 22, 'a', 'revoked'],
    ['@cert-authority never trusts a plain key', () => `@cert-authority box ${keys.a.line}`, 'box', 22, 'a', 'unknown'],
    ['an unknown marker is skipped', () => `@trusted box ${keys.a.line}`, 'box', 22, 'a', 'unknown'],
    ['a port entry is not the port-22 name', () => `[box]:2222 ${keys.a.line}`, 'box', 22, 'a', 'unknown'],
    ['a wrong port entry is unknown', () => `[box]:2222 ${keys.a.line}`, 'box', 2223, 'a', 'unknown'],
    ['the right port entry is trusted', () => `[box]:2222 ${keys.a.line}`, 'box', 2222, 'a', 'trusted'],
    ['a port-22 entry does not cover another port', () => `box ${keys.a.line}`, 'box', 2222, 'a', 'unknown'],
    ['an IPv6 port entry', () => `[::1]:2222 ${keys.a.line}`, '::1', 2222, 'a', 'trusted'],
    ['a comma list', () => `x,box,y ${keys.a.line} comment here`, 'box', 22, 'a', 'trusted'],
    ['a wildcard', () => `*.example.com ${keys.a.line}`, 'gpu.example.com', 22, 'a', 'trusted'],
    ['a negated pattern excludes', () => `*.example.com,!gpu.example.com ${keys.a.line}`, 'gpu.example.com', 22, 'a', 'unknown'],
    ['a regex metacharacter is literal', () => `b.x ${keys.a.line}`, 'box', 22, 'a', 'unknown'],
    ['a truncated key line is skipped', () => `box ssh-ed25519 AAAA`, 'box', 22, 'a', 'unknown'],
    ['a type that does not match the blob is skipped', () => `box ssh-rsa ${keys.a.line.split(' ')[1]}`, 'box', 22, 'a', 'unknown'],
    ['a comment line is skipped', () => `# box ${keys.a.line}`, 'box', 22, 'a', 'unknown'],
    ['a malformed hash is no match', () => `|1|AAAA|BBBB ${keys.a.line}`, 'box', 22, 'a', 'unknown'],
    [
      'a hashed entry for another name',
      () => `${hashKnownHostName('other', Buffer.alloc(20, 7))} ${keys.a.line}`,
      'box',
      22,
      'a',
      'unknown',
    ],
    ['our hashed entry', () => `${hashKnownHostName('[box]:2222', Buffer.alloc(20, 7))} ${keys.a.line}`, 'box', 2222, 'a', 'trusted'],
  ])('%s', (_name, text, host, port, offered, kind) => {
    expect(v(text(), host, port, keys[offered]).kind).toBe(kind);
  });

  it('matches entries hashed by ssh-keygen -H (plain and [host]:port names)', async () => {
    const hashed = await hashedByOpenSsh(`box ${keys.a.line}\n[10.1.2.3]:2222 ${keys.b.line}\n`);
    expect(hashed).not.toContain('box');
    expect(hashed.split('\n')[0]).toMatch(/^\|1\|/);
    expect(v(hashed, 'box', 22, keys.a).kind).toBe('trusted');
    expect(v(hashed, '10.1.2.3', 2222, keys.b).kind).toBe('trusted');
    expect(v(hashed, '10.1.2.3', 22, keys.b).kind).toBe('unknown');
    expect(v(hashed, 'box', 22, keys.b).kind).toBe('mismatch');
  });

  it('a mismatch names both fingerprints, never key material', () => {
    const verdict = v(`box ${keys.a.line}`, 'box', 22, keys.b);
    if (verdict.kind !== 'mismatch') throw new Error('expected a mismatch');
    const err = hostKeyError(verdict, 'u@box');
    expect(err.code).toBe('ssh_host_key_mismatch');
    expect(err.message).toContain(keys.a.fingerprint);
    expect(err.message).toContain(keys.b.fingerprint);
    expect(JSON.stringify(err.details)).not.toContain(keys.a.line.split(' ')[1]);
  });

  it('an unknown key names the offered fingerprint', () => {
    const verdict = v('', 'box', 22, keys.a);
    if (verdict.kind !== 'unknown') throw new Error('expected unknown');
    expect(hostKeyError(verdict, 'u@box').details).toEqual({ host: 'u@box', fingerprint: keys.a.fingerprint });
  });
});

describe('loadKnownHosts', () => {
  it('skips a missing file and reads the others', async () => {
    const file = path.join(dir, 'kh-ok');
    await fsp.writeFile(file, `box ${keys.a.line}\n`);
    const entries = await loadKnownHosts([path.join(dir, 'missing'), file]);
    expect(entries).toHaveLength(1);
  });
  it('fails closed on a directory in place of the file', async () => {
    await expect(loadKnownHosts([dir])).rejects.toMatchObject({ code: 'ssh_known_hosts_unreadable' });
  });
});
