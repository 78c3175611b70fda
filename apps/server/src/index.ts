/** @genswarms/server: REST + socket.io server. */
export const PACKAGE_NAME = '@genswarms/server';
