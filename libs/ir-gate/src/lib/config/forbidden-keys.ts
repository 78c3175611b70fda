import { CONFIG_MAX_DEPTH } from './limits';
import type { ConfigIssue } from './types';

/** Keys refused anywhere in a config (prototype poisoning; JSON.parse makes `__proto__` an own key). */
export const FORBIDDEN_OBJECT_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** True for a non-null, non-array object. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Walks untrusted JSON-shaped input and reports forbidden keys and nesting deeper than
 * CONFIG_MAX_DEPTH. Iterative with a depth cap, so cycles and deep input cannot exhaust the stack.
 */
export function scanUntrusted(root: unknown, maxDepth: number = CONFIG_MAX_DEPTH): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const stack: Array<{ value: unknown; path: string[] }> = [{ value: root, path: [] }];
  while (stack.length > 0 && issues.length < 50) {
    const { value, path } = stack.pop() as { value: unknown; path: string[] };
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= maxDepth) {
      issues.push({ path: path.join('.'), message: `nesting deeper than ${maxDepth} levels is refused` });
      continue;
    }
    const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
    for (const key of keys) {
      if (!Array.isArray(value) && FORBIDDEN_OBJECT_KEYS.includes(key)) {
        issues.push({ path: [...path, key].join('.'), message: `key "${key}" is forbidden (prototype poisoning)` });
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return issues;
}
