import * as lib from './index';

describe('@genswarms/receipts public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual([
      'DEFAULT_BOUNDS',
      'DONE_ERROR_MAX_CHARS',
      'DONE_FILE',
      'DONE_MAX_BYTES',
      'MALFORMED_SETTLE_MS',
      'RECEIPT_REASONS',
      'REPLY_FILE',
      'REPLY_MAX_BYTES',
      'ReceiptError',
      'TURN_DIR_MODE',
      'TURN_ID_RE',
      'WATCH_POLL_MS',
      'isTurnId',
      'newTurnId',
      'placeFileUnder',
      'prepareTurnDir',
      'readTurnReceipt',
      'readUntrustedFile',
      'watchTurn',
      'writeFileSafely',
      'writeFileUnder',
    ]);
  });
});
