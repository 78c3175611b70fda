/**
 * Workspaces only where the operator allows them (docs/security.md "Workspace roots"), through the real
 * server on port 0, booted from GENSWARMS_WORKSPACE_ROOTS: a named workspace outside the roots is refused
 * with 400 `workspace_outside_roots` naming the roots at validate, start and add_agent; a link below a root, a
 * third uid's directory or a system directory with `unsafe_workspace`; each refusal leaves the host exactly as
 * it was (owner, mode and contents compared before and after). Inside a root a real directory of the server's
 * is adopted: handed to the agent uid, its files untouched. The server runs as root, so the chown is real.
 */
import { chmodSync, chownSync, existsSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { tempDir } from './support/harness';
import { snapshotTree } from '@genswarms/tools';
import { bootFromEnv, type EnvServer } from './support/roots-server';
import { waitFor } from './support/engine-server';

const IS_ROOT = process.getuid?.() === 0;
if (!IS_ROOT) console.warn('SKIPPING the workspace roots e2e: the adoption and third-uid cases need a root server');
const describeRoot = IS_ROOT ? describe : describe.skip;

const dir = tempDir('gs-ws-roots-');
const base = dir.path;
const root = join(base, 'srv', 'ws');
const outside = join(base, 'outside');
let s: EnvServer;

beforeAll(async () => {
  chmodSync(base, 0o711); // search only: the agent uid passes through to its workspace
  mkdirSync(join(base, 'srv'), { mode: 0o711 });
  for (const d of [root, join(base, 'srv', 'ws-evil'), outside, join(root, 'real'), join(base, 'configs'), join(base, 'op')])
    mkdirSync(d, { recursive: true, mode: 0o711 });
  writeFileSync(join(outside, 'passwd'), 'root:x:0:0::/root:/bin/sh\n', { mode: 0o644 });
  symlinkSync(outside, join(root, 'out'));
  symlinkSync(join(root, 'real'), join(root, 'in'));
  mkdirSync(join(root, 'theirs'));
  if (IS_ROOT) chownSync(join(root, 'theirs'), 4242, 4242);
  s = await bootFromEnv(
    {
      GENSWARMS_HOME: join(base, 'home'),
      GENSWARMS_SWARM_CONFIG_DIR: join(base, 'configs'),
      GENSWARMS_WORKSPACE_ROOTS: root,
      HOME: join(base, 'op'),
    },
    base,
  );
}, 60_000);
afterAll(async () => {
  await s?.shutdown();
  dir.cleanup();
});

/** [case, workspace as written, expected code, system paths to watch besides the temp tree (the entry alone)]. */
const CASES: readonly (readonly [string, string, string, readonly string[]])[] = [
  ['/etc', '/etc', 'workspace_outside_roots', ['/etc', '/etc/passwd']],
  ['/usr/local/bin', '/usr/local/bin', 'workspace_outside_roots', ['/usr/local/bin']],
  ['/root/.ssh', '/root/.ssh', 'workspace_outside_roots', ['/root', '/root/.ssh']],
  ['/boot', '/boot', 'workspace_outside_roots', ['/boot']],
  ['/var/spool/cron', '/var/spool/cron', 'workspace_outside_roots', ['/var/spool', '/var/spool/cron']],
  ['a symlink inside the root pointing out', join(root, 'out'), 'workspace_outside_roots', []],
  ['below a symlinked parent pointing out', join(root, 'out', 'ws'), 'workspace_outside_roots', []],
  ['below a symlinked parent pointing inside the root', join(root, 'in', 'ws'), 'unsafe_workspace', []],
  ['a directory owned by another uid', join(root, 'theirs'), 'unsafe_workspace', []],
  ['`..` traversal out of the root', `${root}/x/../../../outside`, 'workspace_outside_roots', []],
  ['the prefix trap (/srv/ws-evil beside the root /srv/ws)', join(base, 'srv', 'ws-evil', 'a'), 'workspace_outside_roots', []],
  ['a relative path (resolved against the config dir, outside the root)', 'ws/rel', 'workspace_outside_roots', []],
  ['NUL', `${root}/a\0b`, 'validation_failed', []],
];

/** The temp tree (but GENSWARMS_HOME, whose database records each refusal) and the watched system paths. */
function snapshot(watch: readonly string[]): unknown {
  const tree = ['srv', 'outside', 'configs', 'op'].map((d) => snapshotTree(join(base, d)));
  return { tree, workspaces: snapshotTree(join(s.home, 'workspaces')), system: watch.map((p) => snapshotTree(p, false)) };
}

const mock = (name: string, workspace: string): Record<string, unknown> => ({ name, backend: 'mock', workspace });

describeRoot('GENSWARMS_WORKSPACE_ROOTS through the real server', () => {
  it('boots with the roots as real paths', () => {
    expect(s.workspaceRoots).toEqual([root]);
  });

  test.each(CASES)('validate refuses %s (%s → %s), creating nothing', async (_label, ws, code, watch) => {
    const before = snapshot(watch);
    const res = await request(s.url)
      .post('/api/config/validate')
      .send({ config: { name: 'v', agents: [mock('a', ws)] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ valid: false, error: code });
    if (code === 'workspace_outside_roots') {
      expect(res.body).toMatchObject({ agent: 'a', roots: [root] });
      expect(res.body.message).toContain(root);
    }
    expect(snapshot(watch)).toEqual(before);
  });

  test.each(CASES)('start refuses %s (%s → %s); no swarm, nothing created', async (_label, ws, code, watch) => {
    const before = snapshot(watch);
    const res = await request(s.url)
      .post('/api/swarms')
      .send({ config: { name: 'st', agents: [mock('ok', join(root, 'fine')), mock('a', ws)] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: code });
    expect((await request(s.url).get('/api/swarms/st')).body.status).not.toBe('running');
    expect(snapshot(watch)).toEqual(before);
  });

  describe('add_agent (a runtime mutation may name a workspace only inside the roots)', () => {
    beforeAll(async () => {
      await request(s.url)
        .post('/api/swarms')
        .send({ config: { name: 'rt', agents: [{ name: 'a', backend: 'mock' }] } })
        .expect(201);
    });

    test.each(CASES)('refuses %s (%s → %s); the agent is not added, nothing created', async (_label, ws, code, watch) => {
      const before = snapshot(watch);
      const res = await request(s.url).post('/api/swarms/rt/agents').send(mock('b', ws));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: code });
      if (code === 'workspace_outside_roots') expect(res.body).toMatchObject({ agent: 'b', roots: [root] });
      expect((await request(s.url).get('/api/swarms/rt')).body.agents.map((a: { name: string }) => a.name)).toEqual(['a']);
      expect(snapshot(watch)).toEqual(before);
    });

    it('accepts a workspace below the root, and creates it there', async () => {
      const ws = join(root, 'team', 'c');
      await request(s.url).post('/api/swarms/rt/agents').send(mock('c', ws)).expect(201);
      expect(statSync(ws).isDirectory()).toBe(true);
    });
  });

  it('the red team reproduction: a root-owned directory with a root-owned passwd, outside the roots, stays as it was', async () => {
    const victim = join(base, 'victim');
    mkdirSync(victim, { mode: 0o755 });
    writeFileSync(join(victim, 'passwd'), 'root:x:0:0::/root:/bin/sh\n', { mode: 0o644 });
    const before = snapshotTree(victim);
    const replace =
      "require('fs').writeFileSync('passwd.new','pwned');require('fs').renameSync('passwd.new','passwd');setInterval(()=>{},1e9)";
    const agent = { name: 'a', backend: 'local', client: { command: [process.execPath, '-e', replace] }, workspace: victim };
    const res = await request(s.url)
      .post('/api/swarms')
      .send({ config: { name: 'red', agents: [agent] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'workspace_outside_roots', agent: 'a', roots: [root] });
    expect(snapshotTree(victim)).toEqual(before);
    expect(statSync(victim).uid).toBe(0);
  });

  it('adopts a real directory of the server user inside the root: the directory goes to the agent uid, a hard-linked file stays untouched', async () => {
    const ws = join(root, 'adopted');
    mkdirSync(ws, { mode: 0o755 });
    linkSync(join(outside, 'passwd'), join(ws, 'passwd')); // two hard links, one outside the root
    writeFileSync(join(ws, 'notes'), 'operator', { mode: 0o600 });
    const files = [join(ws, 'passwd'), join(ws, 'notes'), join(outside, 'passwd')];
    const before = files.map((f) => snapshotTree(f, false));
    const write = "require('fs').writeFileSync('hello','agent');setInterval(()=>{},1e9)";
    const agent = { name: 'a', backend: 'local', client: { command: [process.execPath, '-e', write] }, workspace: ws };
    await request(s.url)
      .post('/api/swarms')
      .send({ config: { name: 'adopt', agents: [agent] } })
      .expect(201);
    // the content, not the name: the file exists a moment before the agent's write lands in it
    await waitFor(
      async () => existsSync(join(ws, 'hello')) && readFileSync(join(ws, 'hello'), 'utf8') === 'agent',
      'the agent writing in its workspace',
    );
    // the agent's own identity (a root server gives each agent its uid:gid), as its live process shows it
    const iso = await waitFor(async () => (await request(s.url).get('/api/swarms/adopt/agents/a')).body.isolation, 'the isolation');
    const agentUid = (iso as { uid: number }).uid;
    expect(agentUid).not.toBe(0);
    expect(statSync(ws)).toMatchObject({ uid: agentUid, gid: agentUid });
    expect(statSync(ws).mode & 0o7777).toBe(0o755);
    expect(statSync(join(ws, 'hello')).uid).toBe(agentUid);
    expect(readFileSync(join(ws, 'hello'), 'utf8')).toBe('agent');
    expect(files.map((f) => snapshotTree(f, false))).toEqual(before);
    expect(statSync(join(outside, 'passwd')).nlink).toBe(2);
    await request(s.url).delete('/api/swarms/adopt').expect(200);
  });
});
