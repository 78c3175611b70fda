/** Every failure @genswarms/egress reports. Callers branch on `.code`, never on `.message`. */
export type EgressErrorCode = 'endpoint_not_allowed' | 'endpoint_not_configured' | 'egress_unavailable' | 'forwarder_failed';

/** The one error class of @genswarms/egress. Messages carry hosts at most, never keys or full URLs. */
export class EgressError extends Error {
  readonly code: EgressErrorCode;
  /** `endpoint_not_allowed`: the refused endpoint's host only (never path, query or credentials). */
  readonly endpoint?: string;

  constructor(code: EgressErrorCode, message: string, options?: { cause?: unknown; endpoint?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options?.endpoint !== undefined) this.endpoint = options.endpoint;
    Object.defineProperty(this, 'name', { value: 'EgressError', enumerable: false, configurable: true, writable: true });
  }
}
