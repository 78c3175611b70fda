import * as lib from './index';

const PINNED = [
  'DB_FILE_NAME',
  'EVENTS_KEEP',
  'EngineError',
  'INBOX_LIMIT',
  'MESSAGE_LOG_KEEP',
  'PACKAGE_NAME',
  'PLAN_ERROR_CODES',
  'SqliteStore',
  'isEngineErrorCode',
  'statusForCode',
];

describe('@genswarms/engine public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual([...PINNED].sort());
  });
});
