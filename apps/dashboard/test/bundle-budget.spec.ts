import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// The built assets (nx runs `build` before this project's tests): small, self-contained, no CDN.
const DIST = join(__dirname, '..', 'dist');
/** Budget for all JavaScript and CSS, gzipped (issue: ≤ 300 KB). */
const BUDGET_GZIP_BYTES = 300 * 1024;

describe('built dashboard', () => {
  const files = existsSync(DIST) ? readdirSync(DIST) : [];

  it('exists (run `npx nx run dashboard:build`)', () => {
    expect(files.sort()).toEqual(['app.css', 'app.js', 'favicon.svg', 'index.html']);
  });

  it(`keeps all JavaScript and CSS within ${BUDGET_GZIP_BYTES} bytes gzipped`, () => {
    const sizes = files.filter((f) => /\.(js|css)$/.test(f)).map((f) => gzipSync(readFileSync(join(DIST, f)), { level: 9 }).length);
    const total = sizes.reduce((a, b) => a + b, 0);
    console.log(`dashboard bundle: ${total} bytes gzipped (${files.join(', ')})`);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });

  it('index.html has no inline script or style and loads nothing from outside the server', () => {
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc="\/ui\/)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const m of html.matchAll(/(?:src|href)="([^"]*)"/g)) expect(m[1]).toMatch(/^\/ui\/[a-z-]+\.[a-z]+$/);
  });

  it('the CSS imports no font or remote file', () => {
    const css = readFileSync(join(DIST, 'app.css'), 'utf8');
    expect(css).not.toMatch(/@import|@font-face|url\((?!["']?data:)/);
  });
});
