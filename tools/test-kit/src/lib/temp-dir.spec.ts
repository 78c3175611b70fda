import { existsSync, lstatSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir';
import { TestKitError } from './test-kit-error';

describe('tempDir', () => {
  it('creates a private real directory and removes it, twice safely', () => {
    const dir = tempDir('gs-kit-');
    try {
      const st = lstatSync(dir.path);
      expect({ dir: st.isDirectory(), mode: st.mode & 0o777, real: realpathSync(dir.path) }).toEqual({
        dir: true,
        mode: 0o700,
        real: dir.path,
      });
      writeFileSync(join(dir.path, 'f'), 'x');
    } finally {
      dir.cleanup();
    }
    expect(existsSync(dir.path)).toBe(false);
    expect(() => dir.cleanup()).not.toThrow();
  });

  test.each(['', '../escape-', 'a/b', '.hidden-', 'nul\0', 'x'.repeat(65), 'sp ace'])('refuses the prefix %j', (prefix) => {
    expect(() => tempDir(prefix)).toThrow(TestKitError);
  });
});
