/**
 * node-pty is an optional dependency loaded only when a pty client starts: the barrel never loads it,
 * and a missing node-pty refuses the pty client with `pty_unavailable` (nothing spawned).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RunnerError } from '../src/index';
import { loadPty } from '../src/lib/local/pty-client';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

it('no runners source imports node-pty as a value (only `import type`, and the lazy require in loadPty)', () => {
  const root = join(__dirname, '../src');
  const offenders = sources(root).filter((file) => {
    const text = readFileSync(file, 'utf8');
    return (
      /^import(?! type)[^;]*from 'node-pty'/m.test(text) ||
      /require\('node-pty'\)/.test(text.replace(/load: \(\) => unknown = \(\) => require\('node-pty'\)/, ''))
    );
  });
  expect(offenders.map((f) => relative(root, f))).toEqual([]);
});

test.each([
  ['is not installed', new Error("Cannot find module 'node-pty'")],
  ['fails to load its native build', new Error('pty.node: invalid ELF header')],
])('a pty client whose node-pty %s is refused with pty_unavailable', (_what, cause) => {
  let thrown: unknown;
  try {
    loadPty('tui', () => {
      throw cause;
    });
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(RunnerError);
  expect(thrown).toMatchObject({ code: 'pty_unavailable', agent: 'tui', cause });
});

it('loads the installed node-pty', () => {
  expect(typeof loadPty('tui').spawn).toBe('function');
});
