/** GENSWARMS_AGENT_UID / GENSWARMS_AGENT_GID (docs/security.md#one-identity-per-agent): validated at start, 0 or junk refuses to boot. */
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
  ])('a root server with GENSWARMS_SHARED_AGENT_UID=1 runs every agent as %s', async (_label, extra, agent) => {
    if (process.getuid?.() !== 0) return; // GENSWARMS_HOME must be owned by the uid passed in: only true for a root test process
    const res = await loadServerConfig(env({ ...extra, GENSWARMS_SHARED_AGENT_UID: '1' }), { cwd: dir.path, uid: 0, gid: 0 });
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
        { ...env({ GENSWARMS_AGENT_UID: '4000', GENSWARMS_AGENT_GID: gid, GENSWARMS_SHARED_AGENT_UID: '1' }), GENSWARMS_HOME: home },
        { cwd: dir.path, uid: 0, gid: 0 },
      );
    expect((await load('4100')).kind).toBe('ok');
    expect(statSync(home).mode & 0o7777).toBe(0o710);
    expect((await load('4200')).kind).toBe('ok'); // another agent group: not ours to keep
    expect(statSync(home).mode & 0o7777).toBe(0o700);
  });

  it('a root server with nothing set gives each agent its own ids from the default range (no shared `agent`)', async () => {
    if (process.getuid?.() !== 0) return;
    const res = await loadServerConfig(env({}), { cwd: dir.path, uid: 0, gid: 0 });
    expect(res).toMatchObject({ kind: 'ok', config: { agentIds: { kind: 'per_agent', range: { first: 200000, last: 299999 } } } });
    expect(res.kind === 'ok' ? res.config.agent : 'x').toBeUndefined();
  });

  test.each<[string, ServerEnv, string]>([
    [
      'a fixed uid without the shared opt-in',
      { GENSWARMS_AGENT_UID: '4000' },
      'genswarms: invalid GENSWARMS_AGENT_UID: a root server gives each agent its own uid (GENSWARMS_AGENT_UID_RANGE); to run every agent as this one uid instead (weaker: unsandboxed agents can read each other), also set GENSWARMS_SHARED_AGENT_UID=1',
    ],
    [
      'a range with the shared opt-in',
      { GENSWARMS_SHARED_AGENT_UID: '1', GENSWARMS_AGENT_UID_RANGE: '300000-300100' },
      'genswarms: invalid GENSWARMS_AGENT_UID_RANGE: cannot be combined with GENSWARMS_SHARED_AGENT_UID=1 (one shared uid, or one uid per agent)',
    ],
    [
      'a shared flag that is not 0 or 1',
      { GENSWARMS_SHARED_AGENT_UID: 'yes' },
      'genswarms: invalid GENSWARMS_SHARED_AGENT_UID: "yes": expected 1 (every agent shares one uid) or 0',
    ],
    [
      'a range containing 0',
      { GENSWARMS_AGENT_UID_RANGE: '0-100' },
      'genswarms: invalid GENSWARMS_AGENT_UID_RANGE: "0-100": the range contains 0 (agents never run as root)',
    ],
    [
      'a range of one id',
      { GENSWARMS_AGENT_UID_RANGE: '300000-300000' },
      expect.stringContaining('FIRST must be below LAST') as unknown as string,
    ],
    [
      'a reversed range',
      { GENSWARMS_AGENT_UID_RANGE: '300100-300000' },
      expect.stringContaining('FIRST must be below LAST') as unknown as string,
    ],
    [
      'a range past ustar ids',
      { GENSWARMS_AGENT_UID_RANGE: '300000-3000000' },
      expect.stringContaining('ids above 2097151') as unknown as string,
    ],
    ['one number', { GENSWARMS_AGENT_UID_RANGE: '300000' }, expect.stringContaining('expected FIRST-LAST') as unknown as string],
    ['shell syntax', { GENSWARMS_AGENT_UID_RANGE: '1-2;id' }, expect.stringContaining('expected FIRST-LAST') as unknown as string],
    [
      'a range over root (uid 0 lies in 0-65535)',
      { GENSWARMS_AGENT_UID_RANGE: '0-65535' },
      expect.stringContaining('contains 0') as unknown as string,
    ],
    [
      'a range over the host users',
      { GENSWARMS_AGENT_UID_RANGE: '1-65534' },
      expect.stringContaining('/etc/passwd has daemon with id 1 inside the range') as unknown as string,
    ],
  ])('a root server refuses %s', async (_label, extra, line) => {
    expect(await loadServerConfig(env(extra), { cwd: dir.path, uid: 0, gid: 0 })).toMatchObject({ kind: 'invalid', line });
  });

  it('a non-root server refuses a range (it cannot switch ids) and runs agents as itself otherwise', async () => {
    expect(
      await loadServerConfig(env({ GENSWARMS_AGENT_UID_RANGE: '300000-300100' }), { cwd: dir.path, uid: 1000, gid: 1000 }),
    ).toMatchObject({
      kind: 'invalid',
      line: 'genswarms: invalid GENSWARMS_AGENT_UID_RANGE: only a server running as root can give agents their own ids',
    });
  });
});
