/** @genswarms/security: Token gate, loopback test, bearer parsing, CORS, bind address, config-path confinement, endpoint trust, redaction. */
export const PACKAGE_NAME = '@genswarms/security';
