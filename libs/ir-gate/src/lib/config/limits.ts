/** Largest config document accepted, in bytes (docs/security.md: 1 MiB). */
export const CONFIG_MAX_BYTES = 1048576;
/**
 * Largest YAML config document accepted, in bytes (128 KiB). The YAML parser needs 2–7 µs of CPU per byte on
 * the project's 2-core machine depending on the shape (flow sequences and one-line mappings are the worst), so
 * a 1 MiB YAML document held the event loop for seconds and a 253 KB one for over 1 s (both found by the
 * config-text fuzz target); 128 KiB keeps the worst shape well under a second. A config is a few KB; a larger
 * one goes as JSON, which keeps CONFIG_MAX_BYTES.
 */
export const YAML_MAX_BYTES = 131072;
/** Deepest nesting accepted in a config document; deeper input is refused, never recursed into. */
export const CONFIG_MAX_DEPTH = 64;
/** Largest YAML alias expansion count accepted (billion-laughs guard). */
export const YAML_MAX_ALIAS_COUNT = 100;
/** Upper bound of `options.max_agents` and of any scale target (docs/configuration.md). */
export const MAX_AGENTS_LIMIT = 100000;
/** Agent cap when neither the swarm nor the server sets one (docs/ir.md). */
export const DEFAULT_MAX_AGENTS = 100;
/** `turn_timeout_ms` upper bound: one day in milliseconds. */
export const TURN_TIMEOUT_MAX_MS = 86400000;
