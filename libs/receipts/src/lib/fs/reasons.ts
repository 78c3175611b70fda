/** Why a receipt (or any untrusted file) was refused. docs/receipts.md reason codes. */
export type ReceiptReason =
  'receipt_symlink' | 'receipt_replaced' | 'receipt_not_regular' | 'receipt_too_large' | 'receipt_malformed' | 'receipt_turn_mismatch';

/** Every reason code, in contract order (for docs and exhaustive tests). */
export const RECEIPT_REASONS: readonly ReceiptReason[] = Object.freeze([
  'receipt_symlink',
  'receipt_replaced',
  'receipt_not_regular',
  'receipt_too_large',
  'receipt_malformed',
  'receipt_turn_mismatch',
]);

/** Reasons the file-level reader can produce (validation reasons come later). */
export type FileReason = 'receipt_symlink' | 'receipt_replaced' | 'receipt_not_regular' | 'receipt_too_large';
