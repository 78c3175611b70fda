/** Every failure the kit throws. Specs branch on `.code`, never on `.message`. */
export type TestKitErrorCode = 'timed_out' | 'not_refused' | 'wrong_error' | 'promise_from_sync' | 'invalid_option';

/** The one error class of @genswarms/test-kit; its message is what a failing spec prints. */
export class TestKitError extends Error {
  readonly code: TestKitErrorCode;

  constructor(code: TestKitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, 'name', { value: 'TestKitError', enumerable: false, configurable: true, writable: true });
  }
}
