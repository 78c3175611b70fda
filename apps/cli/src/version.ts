/** Printed by `genswarms --version`. Keep in step with package.json. */
export const CLI_VERSION = '0.1.0';
