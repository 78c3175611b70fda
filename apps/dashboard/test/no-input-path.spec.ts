import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// Static guarantees of the dashboard's sources (docs/dashboard.md): the terminal is read-only (no path from
// the browser to a pane exists), and nothing is ever parsed as HTML or run as code.
const SRC = join(__dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}
/** Code only: comments may name what the code must not do. */
const stripComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1');
const FILES = sources(SRC).map((p) => ({ name: relative(SRC, p), text: stripComments(readFileSync(p, 'utf8')) }));

/** The only socket events the dashboard sends: none of them carries terminal input. */
const SOCKET_EVENTS = ['join', 'send_task', 'subscribe_events'];

describe('dashboard sources', () => {
  it('emit only the known socket events', () => {
    const emitted = FILES.flatMap((f) => [...f.text.matchAll(/\.emit(?:WithAck)?\(\s*'([^']+)'/g)].map((m) => m[1]));
    expect([...new Set(emitted)].sort()).toEqual(SOCKET_EVENTS);
    expect(FILES.filter((f) => /\.emit(?:WithAck)?\(\s*[^'\s]/.test(f.text)).map((f) => f.name)).toEqual([]);
  });

  test.each([
    ['terminal input listener', /\.(onData|onKey|onBinary)\(/],
    ['terminal input injection', /\.(input|paste)\(/],
    ['HTML parsing', /innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|DOMParser|createContextualFragment|document\.write/],
    ['code from strings', /\beval\(|new Function\(|setTimeout\(\s*['"`]/],
    ['persistent token storage', /localStorage|document\.cookie|indexedDB/],
    ['token in a URL', /[?&]token=/],
  ])('contain no %s', (_what, pattern) => {
    expect(FILES.filter((f) => pattern.test(f.text)).map((f) => f.name)).toEqual([]);
  });
});
