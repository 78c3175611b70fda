/** @genswarms/cli: The genswarms CLI. */
export const PACKAGE_NAME = '@genswarms/cli';
