/** Reported by `GET /` and `genswarms --version`. Keep in step with package.json. */
export const SERVER_VERSION = '0.1.0';
