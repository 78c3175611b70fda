/**
 * `scale` plans every new member's workspace against the roots of THIS boot (docs/security.md "Workspace
 * roots"): a swarm started when its workspaces were allowed, then recovered by a server whose
 * GENSWARMS_WORKSPACE_ROOTS no longer holds them (or whose directories were swapped meanwhile), refuses to
 * scale with 400 and the code start would give, and leaves the host as it was. Two real boots on one home.
 */
import { chmodSync, chownSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { tempDir } from './support/harness';
import { snapshotTree } from '@genswarms/tools';
import { bootFromEnv, type EnvServer } from './support/roots-server';
import { waitFor } from './support/engine-server';

const IS_ROOT = process.getuid?.() === 0;
if (!IS_ROOT) console.warn('SKIPPING the workspace roots scale e2e: the third-uid case needs a root test process');
const describeRoot = IS_ROOT ? describe : describe.skip;

const dir = tempDir('gs-ws-roots-scale-');
const base = dir.path;
const root = join(base, 'srv', 'ws');
const evil = join(base, 'srv', 'ws-evil');
const outside = join(base, 'outside');
const env = (roots: string): Record<string, string> => ({
  GENSWARMS_HOME: join(base, 'home'),
  GENSWARMS_SWARM_CONFIG_DIR: join(base, 'configs'),
  GENSWARMS_WORKSPACE_ROOTS: roots,
  HOME: join(base, 'op'),
});
let s: EnvServer;

/** [base agent, its workspace at the first boot, what happens to it before the second, expected scale refusal]. */
const BASES: readonly (readonly [string, string, () => void, string])[] = [
  ['trap', join(evil, 'trap'), () => undefined, 'workspace_outside_roots'],
  [
    'swapped',
    join(root, 'swapped'),
    () => {
      renameSync(join(root, 'swapped'), join(base, 'old-swapped'));
      symlinkSync(outside, join(root, 'swapped')); // a symlink inside the root pointing out
    },
    'workspace_outside_roots',
  ],
  ['given', join(root, 'given'), () => chownSync(join(root, 'given'), 4242, 4242), 'unsafe_workspace'],
];

beforeAll(async () => {
  chmodSync(base, 0o711);
  for (const d of [root, evil, outside, join(base, 'configs'), join(base, 'op')]) mkdirSync(d, { recursive: true, mode: 0o711 });
  writeFileSync(join(outside, 'passwd'), 'root:x:0:0::/root:/bin/sh\n', { mode: 0o644 });
  if (!IS_ROOT) return;
  const first = await bootFromEnv(env(`${root},${evil}`), base);
  const agents = BASES.map(([name, ws]) => ({ name, backend: 'mock', workspace: ws }));
  await request(first.url)
    .post('/api/swarms')
    .send({ config: { name: 'sc', agents } })
    .expect(201);
  for (const [name] of BASES)
    await waitFor(async () => (await request(first.url).get(`/api/swarms/sc/agents/${name}`)).body.state === 'idle', `${name} idle`);
  await first.close(); // detach: the swarm stays running for the next boot's recovery
  for (const [, , change] of BASES) change();
  s = await bootFromEnv(env(root), base);
}, 60_000);
afterAll(async () => {
  await s?.shutdown();
  dir.cleanup();
});

describeRoot('scale against the roots of the running boot', () => {
  it('recovery fails each agent whose workspace no longer plans', async () => {
    for (const [name] of BASES)
      await waitFor(async () => (await request(s.url).get(`/api/swarms/sc/agents/${name}`)).body.state === 'failed', `${name} failed`);
  });

  test.each(BASES)('scaling %s is refused; no member added, the host left as it was', async (name, _ws, _change, code) => {
    const before = ['srv', 'outside', 'old-swapped'].map((d) => snapshotTree(join(base, d)));
    const res = await request(s.url).post(`/api/swarms/sc/agents/${name}/scale`).send({ count: 2 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: code });
    if (code === 'workspace_outside_roots') expect(res.body).toMatchObject({ roots: [root] });
    const names = (await request(s.url).get('/api/swarms/sc')).body.agents.map((a: { name: string }) => a.name);
    expect(names.sort()).toEqual(BASES.map(([n]) => n).sort());
    expect(['srv', 'outside', 'old-swapped'].map((d) => snapshotTree(join(base, d)))).toEqual(before);
  });
});
