/**
 * Programming errors of the receipts API (bad ids, names or options). File-system findings are never
 * thrown: they come back as `{kind:'refused', reason}` values so the engine can branch on them.
 */
export type ReceiptErrorCode = 'invalid_turn_id' | 'invalid_file_name' | 'invalid_path' | 'invalid_option';

export class ReceiptError extends Error {
  readonly code: ReceiptErrorCode;

  constructor(code: ReceiptErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, 'name', { value: 'ReceiptError', enumerable: false, configurable: true, writable: true });
  }
}
