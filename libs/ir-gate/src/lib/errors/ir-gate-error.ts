/** Codes of IrGateError: thrown only for programmer errors; data errors are returned as values. */
export type IrGateErrorCode = 'invalid_argument';

/** The one error class of @genswarms/ir-gate. Callers branch on `.code`. */
export class IrGateError extends Error {
  readonly code: IrGateErrorCode;
  constructor(code: IrGateErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, 'name', { value: 'IrGateError', enumerable: false });
  }
}
