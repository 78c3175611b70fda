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
/**
 * Largest `count` of one agent entry, and of all agents a config declares once counts are expanded: the
 * largest group `scale_agent_group` can make, so a declared swarm can always be scaled back to its size.
 * The expanded IR is held in memory (about 1 KB per agent), so the bound is also a memory bound.
 */
export const AGENT_COUNT_MAX = MAX_AGENTS_LIMIT;
/**
 * Most edges a config's topology may expand to. An edge naming a counted entry stands for one edge per
 * instance, and one between two counted entries for every pair: 2 × AGENT_COUNT_MAX covers a fan-out and a
 * fan-in of the largest group while refusing a product (10,000 × 10,000 = 10^8 edges) that would exhaust memory.
 */
export const EXPANDED_EDGES_MAX = 2 * AGENT_COUNT_MAX;
