/** How long ago `iso` was, relative to `nowMs`: `12s`, `4m`, `3h`, `2d`; `-` when unknown or in the future by clock skew. */
export function formatAge(iso: unknown, nowMs: number): string {
  if (typeof iso !== 'string') return '-';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '-';
  const s = Math.max(0, Math.floor((nowMs - then) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
