/** Every failure the security lib throws. Callers branch on `.code`, never on `.message`. */
export type SecurityErrorCode =
  'invalid_bind_address' | 'invalid_port' | 'invalid_config_dir' | 'invalid_llm_endpoint' | 'invalid_endpoint' | 'invalid_route_template';

/** The one error class of @genswarms/security. Messages never contain secrets. */
export class SecurityError extends Error {
  readonly code: SecurityErrorCode;

  constructor(code: SecurityErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, 'name', { value: 'SecurityError', enumerable: false, configurable: true, writable: true });
  }
}
