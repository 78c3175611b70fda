import { isAbsolute, normalize } from 'node:path';
import { ReceiptError } from '../errors/receipt-error';

/** A plain basename: non-empty, no `/`, no NUL, not `.` or `..`. Else ReceiptError `invalid_file_name`. */
export function assertPlainName(name: unknown): asserts name is string {
  const ok =
    typeof name === 'string' &&
    name.length > 0 &&
    name.length <= 255 &&
    !name.includes('/') &&
    !name.includes('\0') &&
    name !== '.' &&
    name !== '..';
  if (!ok) throw new ReceiptError('invalid_file_name', 'file name must be a plain basename (no "/", NUL, "." or "..")');
}

/**
 * The caller promises a real path (computed once, never from agent input). We can only check its form:
 * absolute, normalised, no NUL, no trailing slash. Else ReceiptError `invalid_path`.
 */
export function assertRealPathForm(path: unknown, what: string): asserts path is string {
  const ok =
    typeof path === 'string' &&
    !path.includes('\0') &&
    isAbsolute(path) &&
    normalize(path) === path &&
    (path === '/' || !path.endsWith('/'));
  if (!ok) throw new ReceiptError('invalid_path', `${what} must be an absolute, normalised real path`);
}
