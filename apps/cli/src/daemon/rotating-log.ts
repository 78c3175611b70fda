import { closeSync, constants, fstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/** Rotate `server.log` once it passes this size (bytes), at a line boundary; `GENSWARMS_LOG_MAX_BYTES` overrides. */
export const LOG_MAX_BYTES_DEFAULT = 10 * 1024 * 1024;
/** Rotated files kept (`server.log.1` … `.N`, oldest dropped); `GENSWARMS_LOG_FILES` overrides. */
export const LOG_FILES_DEFAULT = 5;
const LOG_MAX_BYTES_RANGE = [4096, 1024 ** 3] as const;
const LOG_FILES_RANGE = [1, 100] as const;

export interface LogRotation {
  readonly maxBytes: number;
  readonly keep: number;
}

function parseBounded(raw: string | undefined, fallback: number, [min, max]: readonly [number, number], name: string): number {
  const value = raw?.trim() ?? '';
  if (value === '') return fallback;
  const n = /^[0-9]{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new RangeError(`invalid ${name}: ${JSON.stringify(value)}: expected an integer from ${min} to ${max}`);
  return n;
}

/** `GENSWARMS_LOG_MAX_BYTES` and `GENSWARMS_LOG_FILES`, defaults when unset; RangeError names the variable otherwise. */
export function parseLogRotation(env: Readonly<Record<string, string | undefined>>): LogRotation {
  return {
    maxBytes: parseBounded(env['GENSWARMS_LOG_MAX_BYTES'], LOG_MAX_BYTES_DEFAULT, LOG_MAX_BYTES_RANGE, 'GENSWARMS_LOG_MAX_BYTES'),
    keep: parseBounded(env['GENSWARMS_LOG_FILES'], LOG_FILES_DEFAULT, LOG_FILES_RANGE, 'GENSWARMS_LOG_FILES'),
  };
}

/** Opens the log for appending: 0600, never through a symlink (O_NOFOLLOW), created when missing. */
function openLog(file: string): number {
  return openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
}

/** `file` → `file.1` → … → `file.<keep>`; the oldest is overwritten, so at most keep + 1 files exist. */
export function shiftLogFiles(file: string, keep: number): void {
  rmSync(`${file}.${keep}`, { force: true });
  for (let i = keep - 1; i >= 1; i -= 1) {
    try {
      renameSync(`${file}.${i}`, `${file}.${i + 1}`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // expected: a gap in the numbering
    }
  }
  renameSync(file, `${file}.1`);
}

/**
 * A size-bounded append-only log: a chunk that would pass `maxBytes` is split after its last newline, the
 * head ends the current file, the file rotates, the tail starts the next. Lines are never split across files.
 */
export interface RotatingLog {
  write(chunk: Buffer): void;
  close(): void;
}

export function openRotatingLog(file: string, rotation: LogRotation): RotatingLog {
  let fd = openLog(file);
  let size = fstatSync(fd).size;
  /** Size at which the next rotation is tried: maxBytes, or another maxBytes past a failed rotation. */
  let threshold = rotation.maxBytes;
  const rotate = (): void => {
    closeSync(fd);
    try {
      shiftLogFiles(file, rotation.keep);
    } finally {
      // a failed rename (full disk, something planted in the way) still leaves the log open: lines keep
      // going to it, and the next rotation is tried one maxBytes later instead of on every line
      fd = openLog(file);
      size = fstatSync(fd).size;
      threshold = size + rotation.maxBytes;
    }
  };
  const append = (data: Buffer): void => {
    for (let off = 0; off < data.length;) off += writeSync(fd, data, off);
    size += data.length;
  };
  return {
    write(chunk): void {
      const cut = size + chunk.length <= threshold ? 0 : chunk.lastIndexOf(0x0a) + 1;
      // within bounds, or mid-line (no newline in the chunk): append; the next newline rotates
      if (cut === 0) {
        append(chunk);
        return;
      }
      append(chunk.subarray(0, cut));
      rotate();
      if (cut < chunk.length) append(chunk.subarray(cut));
    },
    close(): void {
      closeSync(fd);
    },
  };
}

/** Rotates before a start when the current log is already full, so a new server starts a fresh file. */
export function rotateIfFull(file: string, rotation: LogRotation): void {
  const fd = openLog(file);
  const full = fstatSync(fd).size >= rotation.maxBytes;
  closeSync(fd);
  if (full) shiftLogFiles(file, rotation.keep);
}
