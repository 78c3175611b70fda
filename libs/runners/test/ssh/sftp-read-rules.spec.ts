/**
 * The SFTP transport's bounded read (docs/runners.md "Remote read rule") against a real sshd, on both of its paths —
 * a small file's pipelined tail (read + fstat + lstat in one round trip) and the loop for larger ones: each hostile
 * file is refused, and a file replaced over and over while it is read comes back whole (one version) or refused,
 * never a mix of two versions.
 */
import { execFileSync } from 'node:child_process';
import { promises as fsp, renameSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { SFTPWrapper } from 'ssh2';
import { parseKnownHosts } from '../../src/lib/ssh/known-hosts';
import { openSshConnection, type SshConnection } from '../../src/lib/ssh/ssh-connection';
import { readPrivateKey } from '../../src/lib/ssh/ssh-key';
import { sftpTransport } from '../../src/lib/ssh/sftp-transport';
import { SFTP_PIPELINED_READ_MAX_BYTES, sftpLstatOrNull, readRemoteBounded } from '../../src/lib/ssh/sftp-io';
import { makeSandboxDirs } from '../support';
import { startTestSshd, testSshdUnavailable, type TestSshd } from '@genswarms/tools';

const skip = testSshdUnavailable();
if (skip !== null) console.warn(`sftp-read-rules.spec skipped: ${skip}`);
const d = skip === null ? describe : describe.skip;
const MAX = 65_536;
const SMALL = SFTP_PIPELINED_READ_MAX_BYTES - 1;
const LARGE = SFTP_PIPELINED_READ_MAX_BYTES + 4096;

d('SFTP bounded read against a real sshd', () => {
  let sshd: TestSshd;
  let conn: SshConnection;
  let s: SFTPWrapper;
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let dir: string;
  const read = (name: string) => sftpTransport(() => Promise.resolve(s), process.getuid?.() ?? 0).readBounded(path.join(dir, name), MAX);

  beforeAll(async () => {
    sshd = await startTestSshd();
    conn = await openSshConnection({
      user: sshd.user,
      host: sshd.host,
      port: sshd.port,
      privateKey: await readPrivateKey(sshd.userKeyPath, process.getuid?.() ?? 0),
      knownHosts: parseKnownHosts(sshd.knownHostsLine()).entries,
      silentlyAcceptHosts: false,
    });
    s = await conn.sftp();
    dirs = makeSandboxDirs('gs-sftp-read-');
    dir = path.join(dirs.root, 'files');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(path.join(dir, 'empty'), '');
    writeFileSync(path.join(dir, 'small'), 's'.repeat(SMALL));
    writeFileSync(path.join(dir, 'large'), 'l'.repeat(LARGE));
    writeFileSync(path.join(dir, 'at-bound'), 'b'.repeat(MAX));
    writeFileSync(path.join(dir, 'over-bound'), 'o'.repeat(MAX + 1));
    symlinkSync('/etc/passwd', path.join(dir, 'link'));
    execFileSync('/usr/bin/mkfifo', [path.join(dir, 'fifo')]);
    mkdirSync(path.join(dir, 'subdir'));
  }, 30000);
  afterAll(async () => {
    conn?.close();
    await sshd?.stop();
    dirs?.cleanup();
  });

  test.each([
    ['an empty file', 'empty', { kind: 'ok', length: 0 }],
    ['a small file (pipelined)', 'small', { kind: 'ok', length: SMALL }],
    ['a larger file (loop)', 'large', { kind: 'ok', length: LARGE }],
    ['a file at the bound', 'at-bound', { kind: 'ok', length: MAX }],
    ['a file over the bound', 'over-bound', { kind: 'refused', reason: 'receipt_too_large' }],
    ['a symlink', 'link', { kind: 'refused', reason: 'receipt_symlink' }],
    ['a FIFO', 'fifo', { kind: 'refused', reason: 'receipt_not_regular' }],
    ['a directory', 'subdir', { kind: 'refused', reason: 'receipt_not_regular' }],
    ['nothing', 'absent', { kind: 'missing' }],
  ])('%s', async (_name, file, want) => {
    const r = await read(file);
    if (r.kind === 'ok') expect({ kind: r.kind, length: r.data.length }).toEqual(want);
    else expect(r).toEqual(want);
  });

  test.each([
    ['small', 'small', SMALL],
    ['large', 'large', LARGE],
  ])('a %s file changed after its lstat is refused as replaced', async (_n, file, size) => {
    const p = path.join(dir, file);
    const before = await sftpLstatOrNull(s, p);
    if (before === null) throw new Error('no lstat');
    writeFileSync(p, 'x'.repeat(size + 3));
    expect(await readRemoteBounded(s, p, before, MAX, 5000)).toEqual({ kind: 'refused', reason: 'receipt_replaced' });
  });

  test.each([
    ['pipelined', 100, 200],
    ['loop', LARGE, LARGE + 777],
  ])(
    'a file renamed over and over while read (%s) comes back as one whole version or refused',
    async (_n, a, b) => {
      const p = path.join(dir, `swap-${a}`);
      const versions = [Buffer.alloc(a, 'a'), Buffer.alloc(b, 'b')];
      writeFileSync(p, versions[0] ?? '');
      let stop = false;
      const swapper = (async () => {
        for (let i = 0; !stop; i += 1) {
          writeFileSync(`${p}.tmp`, versions[i % 2] ?? '');
          renameSync(`${p}.tmp`, p);
          await new Promise((r) => setImmediate(r));
        }
      })();
      const seen = new Set<string>();
      try {
        for (let i = 0; i < 150; i += 1) {
          const r = await sftpTransport(() => Promise.resolve(s), 0).readBounded(p, MAX);
          if (r.kind === 'ok') {
            expect(versions.some((v) => v.equals(r.data))).toBe(true);
            seen.add(`ok-${r.data.length}`);
          } else {
            expect(r).toMatchObject({ kind: expect.stringMatching(/^(refused|missing)$/) });
            if (r.kind === 'refused') expect(r.reason).toBe('receipt_replaced');
            seen.add(r.kind);
          }
        }
      } finally {
        stop = true;
        await swapper;
        await fsp.rm(p, { force: true });
      }
      expect(seen.size).toBeGreaterThan(0);
    },
    60000,
  );
});
