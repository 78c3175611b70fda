/** Every failure @genswarms/procctl throws. Callers branch on `.code`, never on `.message`. */
export type ProcctlErrorCode = 'addon_missing' | 'syscall_failed' | 'invalid_argument' | 'handover_too_large';

/** The one error class of @genswarms/procctl. Messages name variables and errno codes, never values. */
export class ProcctlError extends Error {
  readonly code: ProcctlErrorCode;

  constructor(code: ProcctlErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, 'name', { value: 'ProcctlError', enumerable: false, configurable: true, writable: true });
  }
}
