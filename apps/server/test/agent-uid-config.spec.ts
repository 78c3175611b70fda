/** GENSWARMS_AGENT_UID / GENSWARMS_AGENT_GID (docs/security.md §10 "uid rule"): validated at start, 0 or junk refuses to boot. */
import { chmodSync, chownSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadServerConfig } from '../src/index';
import type { ServerEnv } from '../src/index';
import { tempDir } from './support/harness';

const dir = tempDir('gs-agent-uid-');
const env = (extra: ServerEnv): ServerEnv => ({ GENSWARMS_HOME: join(dir.path, 'home'), GENSWARMS_SWARM_CONFIG_DIR: dir.path, ...extra });
const RANGE = 'expected an integer from 1 to 2147483647 (never 0: agents do not run as root)';

afterAll(() => dir.cleanup());

describe('agent uid/gid variables', () => {
  test.each<[string, ServerEnv, string]>([
    ['uid 0', { GENSWARMS_AGENT_UID: '0' }, `genswarms: invalid GENSWARMS_AGENT_UID: "0": ${RANGE}`],
    ['gid 0', { GENSWARMS_AGENT_UID: '4000', GENSWARMS_AGENT_GID: '0' }, `genswarms: invalid GENSWARMS_AGENT_GID: "0": ${RANGE}`],
    ['a negative uid', { GENSWARMS_AGENT_UID: '-1' }, `genswarms: invalid GENSWARMS_AGENT_UID: "-1": ${RANGE}`],
    ['non-digits', { GENSWARMS_AGENT_UID: 'nobody' }, `genswarms: invalid GENSWARMS_AGENT_UID: "nobody": ${RANGE}`],
    ['a fraction', { GENSWARMS_AGENT_GID: '1.5' }, `genswarms: invalid GENSWARMS_AGENT_GID: "1.5": ${RANGE}`],
    ['hex', { GENSWARMS_AGENT_UID: '0x10' }, `genswarms: invalid GENSWARMS_AGENT_UID: "0x10": ${RANGE}`],
    ['a huge uid', { GENSWARMS_AGENT_UID: '99999999999' }, `genswarms: invalid GENSWARMS_AGENT_UID: "99999999999": ${RANGE}`],
    ['uid 2^31', { GENSWARMS_AGENT_UID: '2147483648' }, `genswarms: invalid GENSWARMS_AGENT_UID: "2147483648": ${RANGE}`],
  ])('refuses %s as root', async (_label, extra, line) => {
    expect(await loadServerConfig(env(extra), { cwd: dir.path, uid: 0, gid: 0 })).toMatchObject({ kind: 'invalid', line });
  });

  it('refuses another agent uid than its own for a non-root server (it could not switch)', async () => {
    expect(await loadServerConfig(env({ GENSWARMS_AGENT_UID: '4000' }), { cwd: dir.path, uid: 1000, gid: 1000 })).toMatchObject({
      kind: 'invalid',
      line: 'genswarms: invalid GENSWARMS_AGENT_UID: only a server running as root can run agents under another uid',
    });
  });

  test.each<[string, ServerEnv, { uid: number; gid: number }]>([
    ['the default pair when unset', {}, { uid: 65532, gid: 65532 }],
    ['the default pair when blank', { GENSWARMS_AGENT_UID: '  ' }, { uid: 65532, gid: 65532 }],
    ['the configured uid, gid following it', { GENSWARMS_AGENT_UID: '4000' }, { uid: 4000, gid: 4000 }],
    ['the configured pair', { GENSWARMS_AGENT_UID: ' 4000 ', GENSWARMS_AGENT_GID: '4100' }, { uid: 4000, gid: 4100 }],
  ])('a root server runs agents as %s', async (_label, extra, agent) => {
    if (process.getuid?.() !== 0) return; // GENSWARMS_HOME must be owned by the uid passed in: only true for a root test process
    const res = await loadServerConfig(env(extra), { cwd: dir.path, uid: 0, gid: 0 });
    expect(res).toMatchObject({ kind: 'ok', config: { agent } });
  });

  it('keeps a home the runners opened to the agent group (0710), and tightens any other mode to 0700', async () => {
    if (process.getuid?.() !== 0) return;
    const home = join(dir.path, 'home-710');
    mkdirSync(home, { mode: 0o700 });
    chownSync(home, 0, 4100);
    chmodSync(home, 0o710);
    const load = (gid: string): ReturnType<typeof loadServerConfig> =>
      loadServerConfig(
        { ...env({ GENSWARMS_AGENT_UID: '4000', GENSWARMS_AGENT_GID: gid }), GENSWARMS_HOME: home },
        { cwd: dir.path, uid: 0, gid: 0 },
      );
    expect((await load('4100')).kind).toBe('ok');
    expect(statSync(home).mode & 0o7777).toBe(0o710);
    expect((await load('4200')).kind).toBe('ok'); // another agent group: not ours to keep
    expect(statSync(home).mode & 0o7777).toBe(0o700);
  });
});
