/** @genswarms/engine: Swarms, sessions, turns, routing, events, SQLite store, recovery. */
export const PACKAGE_NAME = '@genswarms/engine';
