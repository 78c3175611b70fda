/** GENSWARMS_SOCKET_MAX_BUFFER_BYTES (README.md (Configuration), docs/websocket.md "Slow consumers"). */
import { join } from 'node:path';
import { loadServerConfig } from '../src/index';
import type { ServerEnv } from '../src/index';
import { tempDir } from './support/harness';

const dir = tempDir('gs-sockbuf-');
const uid = process.getuid?.() ?? 0;
const load = (value?: string): ReturnType<typeof loadServerConfig> =>
  loadServerConfig(
    {
      GENSWARMS_HOME: join(dir.path, 'home'),
      GENSWARMS_SWARM_CONFIG_DIR: dir.path,
      ...(value === undefined ? {} : { GENSWARMS_SOCKET_MAX_BUFFER_BYTES: value }),
    } satisfies ServerEnv,
    { cwd: dir.path, uid },
  );

afterAll(() => dir.cleanup());

describe('GENSWARMS_SOCKET_MAX_BUFFER_BYTES', () => {
  test.each([
    [undefined, undefined],
    ['  ', undefined],
    ['65536', 65536],
    [' 1048576 ', 1048576],
    ['1073741824', 1073741824],
  ])('%j → %j (unset: the 8 MiB default of the socket server)', async (value, bytes) => {
    const res = await load(value);
    expect(res.kind).toBe('ok');
    if (res.kind === 'ok') expect(res.config.socketMaxBufferedBytes).toBe(bytes);
  });

  test.each(['65535', '0', '1073741825', '-1', '1.5', '8MiB', '0x10000', '99999999999'])('%j refuses to start', async (value) => {
    const res = await load(value);
    expect(res).toMatchObject({
      kind: 'invalid',
      variable: 'GENSWARMS_SOCKET_MAX_BUFFER_BYTES',
      line: `genswarms: invalid GENSWARMS_SOCKET_MAX_BUFFER_BYTES: ${JSON.stringify(value)}: expected an integer from 65536 to 1073741824 (bytes)`,
    });
  });
});
