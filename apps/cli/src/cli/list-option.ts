/** Commander collector for a repeatable option (`--add a:b --add b:c`). */
export function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}

/** `a,b` → `['a','b']` (empty entries dropped). */
export function commaList(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').filter((s) => s !== '');
}
