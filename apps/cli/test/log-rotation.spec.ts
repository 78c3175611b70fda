import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOnce } from '@genswarms/tools';
import { openRotatingLog, parseLogRotation, rotateIfFull } from '../src/daemon/rotating-log';
import { cli, closedPort, tempDir } from './support';
import { waitFor } from '@genswarms/test-kit';

const dir = tempDir('gs-cli-rotate-');
afterAll(() => dir.cleanup());
let n = 0;
const fresh = (): string => {
  n += 1;
  const d = join(dir.path, `case-${n}`);
  mkdirSync(d);
  return join(d, 'server.log');
};
const logFiles = (file: string): string[] =>
  readdirSync(join(file, '..'))
    .filter((f) => f.startsWith('server.log'))
    .sort();

describe('the rotating server log', () => {
  it('rotates at a line boundary past maxBytes, keeps at most N rotated files, never splits a line', () => {
    const file = fresh();
    const log = openRotatingLog(file, { maxBytes: 100, keep: 2 });
    const lines = Array.from({ length: 40 }, (_, i) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(20)}\n`);
    // chunks as a pipe delivers them: lines cut anywhere
    const all = Buffer.from(lines.join(''));
    for (let off = 0; off < all.length; off += 37) log.write(all.subarray(off, off + 37));
    log.close();
    expect(logFiles(file)).toEqual(['server.log', 'server.log.1', 'server.log.2']);
    const kept = ['server.log.2', 'server.log.1', 'server.log'].map((f) => readFileSync(join(file, '..', f), 'utf8'));
    for (const text of kept.slice(0, 2)) {
      expect(text.endsWith('\n')).toBe(true);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(100 + 37);
    }
    for (const f of ['server.log', 'server.log.1', 'server.log.2']) expect(statSync(join(file, '..', f)).mode & 0o777).toBe(0o600);
    // the newest lines survive in order, each whole
    const tail = kept.join('');
    expect(all.toString('utf8').endsWith(tail)).toBe(true);
    expect(
      tail
        .split('\n')
        .slice(0, -1)
        .every((l) => /^line \d{3} x{20}$/.test(l)),
    ).toBe(true);
  });

  it('keeps a line without newline in the current file until its newline arrives', () => {
    const file = fresh();
    const log = openRotatingLog(file, { maxBytes: 10, keep: 3 });
    log.write(Buffer.from('0123456789abcdef'));
    log.write(Buffer.from('ghij'));
    expect(logFiles(file)).toEqual(['server.log']);
    log.write(Buffer.from('k\nnext'));
    log.close();
    expect(readFileSync(join(file, '..', 'server.log.1'), 'utf8')).toBe('0123456789abcdefghijk\n');
    expect(readFileSync(file, 'utf8')).toBe('next');
  });

  it('keeps writing after a rotation that failed (a directory planted as server.log.1)', () => {
    const file = fresh();
    mkdirSync(`${file}.1`);
    writeFileSync(join(`${file}.1`, 'x'), 'planted');
    const log = openRotatingLog(file, { maxBytes: 10, keep: 1 });
    expect(() => log.write(Buffer.from('0123456789\nmore\n'))).toThrow();
    log.write(Buffer.from('after\n'));
    log.close();
    expect(readFileSync(file, 'utf8')).toBe('0123456789\nmore\nafter\n'); // nothing lost
  });

  it('refuses a server.log that is a symlink (never writes through it)', () => {
    const file = fresh();
    const target = join(dir.path, 'elsewhere');
    writeFileSync(target, '');
    symlinkSync(target, file);
    expect(() => openRotatingLog(file, { maxBytes: 100, keep: 1 })).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    expect(readlinkSync(file)).toBe(target);
  });

  it('rotates a full log before a start so the new server starts a fresh file', () => {
    const file = fresh();
    writeFileSync(file, 'a'.repeat(100), { mode: 0o600 });
    rotateIfFull(file, { maxBytes: 100, keep: 1 });
    expect(logFiles(file)).toEqual(['server.log.1']); // the start opens a new server.log next
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('a'.repeat(100));
    rotateIfFull(`${file}.1`, { maxBytes: 101, keep: 1 }); // below the limit: left alone
    expect(logFiles(file)).toEqual(['server.log.1']);
  });

  test.each<[Record<string, string>, string]>([
    [{ GENSWARMS_LOG_MAX_BYTES: '100' }, 'GENSWARMS_LOG_MAX_BYTES'],
    [{ GENSWARMS_LOG_MAX_BYTES: '1e9' }, 'GENSWARMS_LOG_MAX_BYTES'],
    [{ GENSWARMS_LOG_MAX_BYTES: '-5' }, 'GENSWARMS_LOG_MAX_BYTES'],
    [{ GENSWARMS_LOG_FILES: '0' }, 'GENSWARMS_LOG_FILES'],
    [{ GENSWARMS_LOG_FILES: '101' }, 'GENSWARMS_LOG_FILES'],
    [{ GENSWARMS_LOG_FILES: '__proto__' }, 'GENSWARMS_LOG_FILES'],
  ])('refuses %j', (env, name) => {
    expect(() => parseLogRotation(env)).toThrow(new RegExp(`^invalid ${name}: `));
  });

  it('defaults to 10 MiB and 5 files', () => {
    expect(parseLogRotation({})).toEqual({ maxBytes: 10 * 1024 * 1024, keep: 5 });
  });
});

describe('genswarms up rotates server.log (real server, detached)', () => {
  beforeAll(() => {
    for (const project of [resolve(__dirname, '..', '..', 'server', 'tsconfig.lib.json'), resolve(__dirname, '..', 'tsconfig.lib.json')]) {
      const built = buildOnce([project]);
      if (built.kind === 'failed') throw new Error(`build failed: ${built.output.slice(0, 2000)}`);
    }
  }, 600_000);

  it('writes JSON request lines through the rotator into at most N+1 files, 0600, and the rotator leaves with the server', async () => {
    const home = join(dir.path, 'home');
    const port = await closedPort();
    const env = {
      GENSWARMS_HOME: home,
      GENSWARMS_URL: `http://127.0.0.1:${port}`,
      GENSWARMS_LOG_LEVEL: 'debug',
      GENSWARMS_LOG_MAX_BYTES: '4096',
      GENSWARMS_LOG_FILES: '2',
    };
    const up = await cli(['up', '--port', String(port)], env, {
      cwd: dir.path,
      serverMain: resolve(__dirname, '..', '..', 'server', 'dist', 'main.js'),
    });
    expect([up.code, up.stderr]).toEqual([0, '']);
    try {
      for (let i = 0; i < 80; i += 1) await (await fetch(`http://127.0.0.1:${port}/healthz`)).arrayBuffer();
    } finally {
      expect((await cli(['down'], env, { cwd: dir.path })).code).toBe(0);
    }
    const rotator = (): boolean =>
      readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .some((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(join(home, 'server.log'));
          } catch {
            return false; // expected: the process ended while we looked
          }
        });
    await waitFor(() => !rotator(), 'the log rotator to exit', { intervalMs: 25 });
    expect(rotator()).toBe(false);
    expect(
      readdirSync(home)
        .filter((f) => f.startsWith('server.log'))
        .sort(),
    ).toEqual(['server.log', 'server.log.1', 'server.log.2']);
    for (const f of ['server.log.1', 'server.log.2']) {
      const text = readFileSync(join(home, f), 'utf8');
      expect(statSync(join(home, f)).mode & 0o777).toBe(0o600);
      // every line is one JSON record (the listening line went to the first file, now rotated away)
      for (const line of text.split('\n').slice(0, -1)) expect(() => JSON.parse(line) as unknown).not.toThrow();
    }
    expect(existsSync(join(home, 'server.log.3'))).toBe(false);
  }, 60_000);
});
