import { LAST_CHARS_KEPT, MAX_LINE_CHARS, OutputHub } from './output-hub';

test('the last lines a hub keeps are bounded in characters, not only in lines (a one-line flood)', () => {
  const hub = new OutputHub();
  for (let i = 0; i < 300; i++) hub.emitLine('stdout', String(i % 10).repeat(MAX_LINE_CHARS));
  const kept = hub.lastLines();
  expect(kept.reduce((n, l) => n + l.length, 0)).toBeLessThanOrEqual(LAST_CHARS_KEPT + MAX_LINE_CHARS);
  expect(kept[kept.length - 1]).toBe('9'.repeat(MAX_LINE_CHARS)); // the newest line is always kept
});

test('short lines: the last 200 are kept', () => {
  const hub = new OutputHub();
  for (let i = 0; i < 250; i++) hub.emitLine('stderr', `line ${i}`);
  expect(hub.lastLines()).toHaveLength(200);
  expect(hub.lastLines()[0]).toBe('line 50');
});
