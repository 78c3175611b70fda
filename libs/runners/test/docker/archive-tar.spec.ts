/**
 * The bounded tar reader of the Docker archive transport on crafted byte streams (pure buffers, no engine):
 * every malformed, oversized, renamed, linked or extra entry is refused, and only one regular file passes.
 */
import { buildSingleEntryTar } from '../../src/lib/docker/archive-tar-build';
import { SingleFileTarReader, TarParser, TarRefusedError, parseTarHeader, singleFileStreamBound } from '../../src/lib/docker/archive-tar';
import { goModeKind, goModeToPosix, parsePathStatHeader, sameArchiveStat } from '../../src/lib/docker/archive-stat';
import { checkArchivePath, receiptReasonOf } from '../../src/lib/docker/archive-transport';
import { collectChildren } from '../../src/lib/docker/archive-listing';

const BLOCK = 512;
const END = Buffer.alloc(2 * BLOCK);

function file(name: string, data: string | Buffer, extra: Partial<{ mode: number; uid: number; gid: number }> = {}): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  return buildSingleEntryTar({ name, kind: 'file', mode: 0o600, uid: 1000, gid: 1000, mtimeSec: 1_700_000_000, data: bytes, ...extra });
}

/** The header + data blocks of `file()` (no end blocks), so entries can be concatenated. */
function entry(name: string, data: string | Buffer): Buffer {
  const t = file(name, data);
  return t.subarray(0, t.length - END.length);
}

/** Rewrites header fields of the first block and recomputes the checksum (unless `keepSum`). */
function patch(tar: Buffer, edits: (h: Buffer) => void, keepSum = false): Buffer {
  const out = Buffer.from(tar);
  const h = out.subarray(0, BLOCK);
  edits(h);
  if (!keepSum) {
    h.fill(0x20, 148, 156);
    let sum = 0;
    for (const c of h) sum += c;
    h.write(sum.toString(8).padStart(6, '0'), 148, 6, 'latin1');
    h[154] = 0;
  }
  return out;
}

function typed(name: string, flag: string, linkname = ''): Buffer {
  return patch(entry(name, ''), (h) => {
    h[156] = flag.charCodeAt(0);
    h.write(linkname, 157, 100, 'utf8');
  });
}

function pax(records: Record<string, string>): Buffer {
  const body = Buffer.from(
    Object.entries(records)
      .map(([k, v]) => {
        const rec = ` ${k}=${v}\n`;
        let len = rec.length + 1;
        while (`${len}${rec}`.length !== len) len += 1;
        return `${len}${rec}`;
      })
      .join(''),
  );
  const t = patch(entry('PaxHeaders.0', body), (h) => (h[156] = 'x'.charCodeAt(0)));
  return t;
}

function readAll(tar: Buffer, name = 'done.json', max = 1024, chunk = 7): ReturnType<SingleFileTarReader['finish']> {
  const r = new SingleFileTarReader(name, max);
  for (let off = 0; off < tar.length; off += chunk) {
    const step = r.write(tar.subarray(off, off + chunk));
    if (step.kind === 'refused') return { kind: 'refused', refusal: step.refusal };
  }
  return r.finish();
}

describe('SingleFileTarReader', () => {
  it('accepts exactly one regular file with its bytes, owner, mode and mtime (fed in 7-byte chunks)', () => {
    const got = readAll(file('done.json', '{"status":"ok"}'));
    expect(got.kind).toBe('ok');
    if (got.kind !== 'ok') return;
    expect(got.data.toString()).toBe('{"status":"ok"}');
    expect([got.header.uid, got.header.gid, got.header.mode, got.header.mtimeSec, got.header.typeflag]).toEqual([
      1000,
      1000,
      0o600,
      1_700_000_000,
      '0',
    ]);
  });

  it('accepts an empty regular file and a NUL typeflag (old ustar regular)', () => {
    expect(readAll(file('done.json', '')).kind).toBe('ok');
    expect(readAll(patch(file('done.json', 'x'), (h) => (h[156] = 0))).kind).toBe('ok');
  });

  const big = Buffer.alloc(2000, 0x61);
  test.each<[string, string, () => Buffer]>([
    ['a wrong header checksum', 'tar_checksum', () => patch(file('done.json', 'x'), (h) => (h[0] = 'D'.charCodeAt(0)), true)],
    [
      'a size field with non-octal digits',
      'tar_size_field',
      () => patch(file('done.json', 'x'), (h) => h.write('0000000009x\0', 124, 12, 'latin1')),
    ],
    ['a base-256 size field (> 8 GiB)', 'tar_size_field', () => patch(file('done.json', 'x'), (h) => (h[124] = 0x80))],
    [
      'a size field claiming 8 GiB - 1',
      'tar_too_large',
      () => patch(file('done.json', 'x'), (h) => h.write('77777777777\0', 124, 12, 'latin1')),
    ],
    ['a file over the bound', 'tar_too_large', () => file('done.json', big)],
    ['a header announcing more than the bound (stream cut short)', 'tar_too_large', () => file('done.json', big).subarray(0, 1200)],
    ['two entries', 'tar_extra_entry', () => Buffer.concat([entry('done.json', 'a'), entry('done.json', 'b'), END])],
    ['a second entry after the end blocks', 'tar_extra_entry', () => Buffer.concat([file('done.json', 'a'), entry('x', 'b')])],
    ['a symlink', 'tar_symlink', () => Buffer.concat([typed('done.json', '2', '/etc/passwd'), END])],
    ['a hardlink', 'tar_hardlink', () => Buffer.concat([typed('done.json', '1', 'reply.md'), END])],
    ['a char device', 'tar_not_regular', () => Buffer.concat([typed('done.json', '3'), END])],
    ['a block device', 'tar_not_regular', () => Buffer.concat([typed('done.json', '4'), END])],
    ['a directory', 'tar_not_regular', () => Buffer.concat([typed('done.json', '5'), END])],
    ['a FIFO', 'tar_not_regular', () => Buffer.concat([typed('done.json', '6'), END])],
    ['another name', 'tar_name_mismatch', () => file('passwd', 'root:x:0:0')],
    [
      'a name with a directory part',
      'tar_name_mismatch',
      () => patch(file('done.json', 'x'), (h) => h.write('../../done.json\0', 0, 100, 'latin1')),
    ],
    ['a GNU long-name header', 'tar_rename_header', () => Buffer.concat([typed('LongLink', 'L'), entry('done.json', 'x'), END])],
    ['a GNU long-link header', 'tar_rename_header', () => Buffer.concat([typed('LongLink', 'K'), entry('done.json', 'x'), END])],
    ['a pax path that renames the entry', 'tar_rename_header', () => Buffer.concat([pax({ path: 'done.json' }), entry('x', 'y'), END])],
    ['a pax linkpath', 'tar_rename_header', () => Buffer.concat([pax({ linkpath: '/etc/passwd' }), entry('done.json', 'y'), END])],
    ['a pax size override', 'tar_size_field', () => Buffer.concat([pax({ size: '5' }), entry('done.json', 'y'), END])],
    [
      'a pax global header',
      'tar_rename_header',
      () => Buffer.concat([patch(entry('g', ''), (h) => (h[156] = 'g'.charCodeAt(0))), entry('done.json', 'y'), END]),
    ],
    [
      'a malformed pax record',
      'tar_malformed',
      () => Buffer.concat([patch(entry('p', '99 path=x\n'), (h) => (h[156] = 'x'.charCodeAt(0))), entry('done.json', 'y'), END]),
    ],
    ['no ustar magic (v7)', 'tar_malformed', () => patch(file('done.json', 'x'), (h) => h.fill(0, 257, 265))],
    ['no end blocks (the engine stopped after a file grew)', 'tar_truncated', () => entry('done.json', 'x')],
    ['one end block only', 'tar_truncated', () => Buffer.concat([entry('done.json', 'x'), Buffer.alloc(BLOCK)])],
    ['a stream cut inside the header', 'tar_truncated', () => file('done.json', 'x').subarray(0, 300)],
    ['a stream cut inside the data', 'tar_truncated', () => file('done.json', Buffer.alloc(900, 0x61)).subarray(0, 700)],
    ['an empty stream', 'tar_truncated', () => Buffer.alloc(0)],
    ['only end blocks (no entry)', 'tar_truncated', () => END],
    [
      'garbage after the end blocks',
      'tar_malformed',
      () => Buffer.concat([file('done.json', 'x'), Buffer.from('junk'.padEnd(BLOCK, '!'))]),
    ],
  ])('%s → %s', (_what, expected, make) => {
    const got = readAll(make());
    expect(got.kind === 'ok' ? 'ok' : got.refusal).toBe(expected);
  });

  it('refuses a tar bomb of many entries at the second header, long before the stream ends', () => {
    const bomb = Buffer.concat([...Array.from({ length: 10_000 }, (_, i) => entry(i === 0 ? 'done.json' : `f${i}`, 'x')), END]);
    const r = new SingleFileTarReader('done.json', 1024);
    let fed = 0;
    let refusal: string | undefined;
    for (let off = 0; off < bomb.length && refusal === undefined; off += 4096) {
      const step = r.write(bomb.subarray(off, off + 4096));
      fed += 4096;
      if (step.kind === 'refused') refusal = step.refusal;
    }
    expect(refusal).toBe('tar_extra_entry');
    expect(fed).toBeLessThanOrEqual(4096);
  });

  it('stops at the byte bound: a stream longer than max + a few blocks is refused as soon as it crosses it', () => {
    const r = new SingleFileTarReader('done.json', 1024);
    const bound = singleFileStreamBound(1024);
    const step = r.write(Buffer.concat([entry('done.json', Buffer.alloc(1024)), Buffer.alloc(bound)]));
    expect(step).toEqual({ kind: 'refused', refusal: 'tar_too_large' });
  });

  it('refuses an entry whose pax header gives a path even when it equals the asked name', () => {
    expect(readAll(Buffer.concat([pax({ path: 'done.json' }), entry('done.json', 'y'), END]))).toEqual({
      kind: 'refused',
      refusal: 'tar_rename_header',
    });
  });

  it('accepts a pax header with only times (what engines add for sub-second mtimes)', () => {
    const got = readAll(Buffer.concat([pax({ mtime: '1700000000.5', atime: '1700000000.5' }), entry('done.json', 'y'), END]));
    expect(got.kind).toBe('ok');
  });
});

describe('TarParser headers', () => {
  it('rejects a header block of the wrong length', () => {
    expect(() => parseTarHeader(Buffer.alloc(100))).toThrow(TarRefusedError);
  });
  it('accepts a signed checksum (old writers) and reads the ustar prefix into the name', () => {
    const t = patch(file('done.json', 'x'), (h) => h.write('turns/t1', 345, 155, 'utf8'));
    expect(parseTarHeader(t.subarray(0, BLOCK)).name).toBe('turns/t1/done.json');
  });
  it('lets a lister take a pax path as the name', () => {
    const p = new TarParser({ maxTotalBytes: 1 << 20, allowPaxPath: true });
    const events = p.write(Buffer.concat([pax({ path: 'outbox/long.json' }), entry('x', 'y'), END]));
    expect(events.filter((e) => e.kind === 'entry').map((e) => (e.kind === 'entry' ? e.header.name : ''))).toEqual(['outbox/long.json']);
    expect(() => p.finish()).not.toThrow();
  });
});

describe('collectChildren', () => {
  it('keeps only the first-level names below the listed directory', () => {
    const into = new Set<string>();
    collectChildren('.outbox', ['.outbox/', '.outbox/a.json', '.outbox/sub/', '.outbox/sub/deep.json', 'other/x', '.outboxy/z'], into);
    expect([...into].sort()).toEqual(['a.json', 'sub']);
  });
});

describe('the engine path stat (X-Docker-Container-Path-Stat)', () => {
  const enc = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64');
  const base = { name: 'done.json', size: 6, mode: 0o600, mtime: '2026-12-01T10:52:08.574090907Z', linkTarget: '' };

  test.each<[string, number, string, number]>([
    ['regular 0600', 0o600, 'file', 0o600],
    ['directory 0700', 2 ** 31 + 0o700, 'dir', 0o700],
    ['symlink', 2 ** 27 + 0o777, 'symlink', 0o777],
    ['named pipe', 2 ** 25 + 0o644, 'other', 0o644],
    ['socket', 2 ** 24 + 0o755, 'other', 0o755],
    ['block device', 2 ** 26 + 0o660, 'other', 0o660],
    ['char device', 2 ** 26 + 2 ** 21 + 0o666, 'other', 0o666],
    ['irregular', 2 ** 19 + 0o600, 'other', 0o600],
    ['setuid + setgid + sticky', 2 ** 23 + 2 ** 22 + 2 ** 20 + 0o755, 'file', 0o7755],
  ])('%s', (_what, goMode, kind, posix) => {
    expect(goModeKind(goMode)).toBe(kind);
    expect(goModeToPosix(goMode)).toBe(posix);
    expect(parsePathStatHeader(enc({ ...base, mode: goMode }))?.kind).toBe(kind);
  });

  it('keeps the exact mtime text and the whole seconds', () => {
    const st = parsePathStatHeader(enc(base));
    expect(st?.mtimeText).toBe(base.mtime);
    expect(st?.mtimeSec).toBe(Math.floor(Date.parse('2026-12-01T10:52:08Z') / 1000));
    expect(st?.mtimeMs).toBe(Date.parse('2026-12-01T10:52:08.574Z'));
    const other = parsePathStatHeader(enc({ ...base, mtime: '2026-12-01T10:52:08.574090908Z' }));
    expect(st !== null && other !== null && sameArchiveStat(st, other)).toBe(false);
  });

  test.each<[string, string | undefined]>([
    ['absent', undefined],
    ['empty', ''],
    ['not base64', '%%%'],
    ['not JSON', Buffer.from('nope').toString('base64')],
    ['a negative size', enc({ ...base, size: -1 })],
    ['a fractional size', enc({ ...base, size: 1.5 })],
    ['a mode beyond 32 bits', enc({ ...base, mode: 2 ** 32 })],
    ['no mtime', enc({ ...base, mtime: undefined })],
    ['a free-form mtime', enc({ ...base, mtime: 'yesterday' })],
    ['oversized', 'A'.repeat(9000)],
  ])('refuses a header that is %s', (_what, value) => {
    expect(parsePathStatHeader(value)).toBeNull();
  });
});

describe('remote paths the archive transport accepts', () => {
  test.each(['/workspace/.outbox/a.json', '/workspace/.genswarms/turns/t1/done.json', '/w/.inbox/.a.json.upload'])('accepts %s', (p) => {
    expect(checkArchivePath(p)).toBe(p);
  });
  test.each([
    'relative/a.json',
    '/workspace/../etc/passwd',
    '/workspace/./a',
    '/workspace//a',
    '/workspace/a/',
    '/workspace/a\0b',
    '/workspace/$(reboot).json',
    '/workspace/a;rm -rf x',
    '/workspace/a b',
    '/workspace/`id`',
    '/workspace/a\nb',
    '/',
    '',
  ])('refuses %j with remote_path_invalid', (p) => {
    expect(() => checkArchivePath(p)).toThrow(expect.objectContaining({ code: 'remote_path_invalid' }));
  });
});

describe('tar refusals as receipt reasons', () => {
  test.each<[Parameters<typeof receiptReasonOf>[0], string]>([
    ['tar_symlink', 'receipt_symlink'],
    ['tar_too_large', 'receipt_too_large'],
    ['tar_truncated', 'receipt_replaced'],
    ['tar_hardlink', 'receipt_not_regular'],
    ['tar_not_regular', 'receipt_not_regular'],
    ['tar_extra_entry', 'receipt_not_regular'],
    ['tar_rename_header', 'receipt_not_regular'],
    ['tar_checksum', 'receipt_not_regular'],
  ])('%s → %s', (r, reason) => {
    expect(receiptReasonOf(r)).toBe(reason);
  });
});
