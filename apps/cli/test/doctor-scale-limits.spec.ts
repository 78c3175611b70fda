import { agentsSupported, checkInotifyWatches, checkOpenFiles, parseOpenFilesLimit } from '../src/doctor/scale-limits';

const limitsText = (soft: string): string =>
  `Limit                     Soft Limit           Hard Limit           Units     \nMax open files            ${soft}                 1048576              files     \n`;

test.each([
  ['1024', 1024],
  ['20000', 20000],
  ['unlimited', undefined],
])('reads the soft open-files limit %s', (soft, expected) => {
  expect(parseOpenFilesLimit(limitsText(soft))).toBe(expected);
});

test.each([
  ['1024', 'problem'],
  ['4256', 'ok'],
  ['20000', 'ok'],
  ['unlimited', 'ok'],
])('judges ulimit -n %s against 1,000 agents: %s', (soft, status) => {
  expect(checkOpenFiles(() => limitsText(soft)).status).toBe(status);
});

test.each([
  ['8192', 'ok'],
  ['2999', 'problem'],
  ['x', 'missing'],
  [undefined, 'missing'],
])('judges fs.inotify.max_user_watches %s: %s', (value, status) => {
  expect(checkInotifyWatches(() => value).status).toBe(status);
});

test('counts agents a limit supports', () => {
  expect([agentsSupported(1024, 4, 256), agentsSupported(10, 4, 256), agentsSupported(8192, 3)]).toEqual([192, 0, 2730]);
});
