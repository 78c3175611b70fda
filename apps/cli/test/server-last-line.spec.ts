import { describeLogLine } from '../src/daemon/wait-ready';

describe('the line up relays from a server that exited at start', () => {
  test.each([
    [
      'genswarms: invalid PORT: "x": expected an integer from 1 to 65535',
      'genswarms: invalid PORT: "x": expected an integer from 1 to 65535',
    ],
    [
      '{"level":"error","message":"listen_failed","bind":"127.0.0.1","port":4000,"code":"EADDRINUSE"}',
      'genswarms: listen_failed (EADDRINUSE)',
    ],
    ['{"level":"error","message":"engine_open_failed","code":"sqlite_cantopen"}', 'genswarms: engine_open_failed (sqlite_cantopen)'],
    ['{"level":"error","message":"engine_open_failed"}', 'genswarms: engine_open_failed'],
    [
      '{"level":"error","message":"store_refused","code":"foreign","explanation":"genswarms.db is a SQLite database of another application. It was left unchanged."}',
      'genswarms: store_refused (foreign): genswarms.db is a SQLite database of another application. It was left unchanged.',
    ],
    ['{"level":"error","msg":"other"}', '{"level":"error","msg":"other"}'],
    ['{not json', '{not json'],
    ['', ''],
  ])('%j → %j', (line, shown) => {
    expect(describeLogLine(line)).toBe(shown);
  });
});
