/**
 * The start-time walk (`ensureWorkspaceDir`, docs/security.md "Workspace roots"): inside a root, genswarms
 * creates the workspace or adopts a real directory of the server user's — handing that directory alone to the
 * agent uid on a root server — and changes nothing else: no link followed, no file touched (not even one with
 * two hard links), no owner or mode changed on a refusal. Real directories, real chown (root test process).
 */
import {
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createWorkspaceDir } from '../../src/index';
import { ensureWorkspaceDir } from '../../src/lib/state/skills-links';
import { makeContext } from '../support';
import { snapshotTree } from '@genswarms/tools';

const isRoot = process.getuid?.() === 0;
const describeRoot = isRoot ? describe : describe.skip;
if (!isRoot) console.warn('SKIPPING the workspace walk specs: they chown, so they need a root test process');

const AGENT = { uid: 65532, gid: 65532 };
const owners = { serverUid: 0, agent: AGENT };

describeRoot('ensureWorkspaceDir inside the workspace roots', () => {
  let tmp: string;
  let root: string;
  let outside: string;
  beforeEach(() => {
    tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gs-ws-walk-')));
    root = path.join(tmp, 'srv', 'ws');
    outside = path.join(tmp, 'outside');
    mkdirSync(root, { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'passwd'), 'root:x:0:0::/root:/bin/sh\n', { mode: 0o644 });
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('creates a missing workspace and its parents 0700, and hands the workspace alone to the agent', async () => {
    const ws = path.join(root, 'team', 'a');
    await ensureWorkspaceDir(ws, owners, [root]);
    expect(statSync(ws)).toMatchObject({ uid: AGENT.uid, gid: AGENT.gid });
    expect(statSync(ws).mode & 0o7777).toBe(0o700);
    expect(statSync(path.join(root, 'team'))).toMatchObject({ uid: 0 });
    expect(statSync(path.join(root, 'team')).mode & 0o7777).toBe(0o700);
  });

  it('adopts a directory of the server user: the directory goes to the agent, its mode and every file stay as they were', async () => {
    const ws = path.join(root, 'adopted');
    mkdirSync(path.join(ws, '.genswarms'), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(ws, 'notes'), 'mine', { mode: 0o640 });
    linkSync(path.join(outside, 'passwd'), path.join(ws, 'passwd')); // two hard links: one outside the root
    const files = [path.join(ws, 'notes'), path.join(ws, 'passwd'), path.join(ws, '.genswarms'), path.join(outside, 'passwd')];
    const before = files.map((f) => snapshotTree(f, false));
    const mode = statSync(ws).mode;
    await ensureWorkspaceDir(ws, owners, [root]);
    expect(statSync(ws)).toMatchObject({ uid: AGENT.uid, gid: AGENT.gid, mode });
    expect(files.map((f) => snapshotTree(f, false))).toEqual(before);
    expect(statSync(path.join(outside, 'passwd')).nlink).toBe(2);
  });

  it('takes a workspace the agent already owns as it is (a restart)', async () => {
    const ws = path.join(root, 'again');
    mkdirSync(ws, { mode: 0o750 });
    chownSync(ws, AGENT.uid, AGENT.gid);
    const before = snapshotTree(tmp);
    await ensureWorkspaceDir(ws, owners, [root]);
    expect(snapshotTree(tmp)).toEqual(before);
  });

  it('the engine creation step (createWorkspaceDir) creates, but hands nothing over', () => {
    mkdirSync(path.join(tmp, 'home'), { mode: 0o700 });
    const ctx = makeContext(path.join(tmp, 'home'), { workspaceRoots: [root] });
    createWorkspaceDir(ctx, path.join(root, 'planned'));
    expect(statSync(path.join(root, 'planned'))).toMatchObject({ uid: 0 });
    createWorkspaceDir(ctx, path.join(ctx.home, 'workspaces', 's', 'a')); // a default one: below GENSWARMS_HOME, whatever the roots
    expect(statSync(path.join(ctx.home, 'workspaces', 's', 'a'))).toMatchObject({ uid: 0 });
  });

  const refusals: readonly [string, string, (t: { root: string; outside: string; tmp: string }) => string][] = [
    [
      'a directory of another uid',
      'unsafe_workspace',
      ({ root }) => {
        mkdirSync(path.join(root, 'theirs'));
        chownSync(path.join(root, 'theirs'), 4242, 4242);
        return path.join(root, 'theirs');
      },
    ],
    [
      'below a directory of another uid',
      'unsafe_workspace',
      ({ root }) => {
        mkdirSync(path.join(root, 'p'));
        chownSync(path.join(root, 'p'), 4242, 4242);
        return path.join(root, 'p', 'ws');
      },
    ],
    [
      'a symlink inside the root pointing out (at a root-owned directory)',
      'unsafe_workspace',
      ({ root, outside }) => {
        symlinkSync(outside, path.join(root, 'out'));
        return path.join(root, 'out');
      },
    ],
    [
      'below a symlinked parent inside the root',
      'unsafe_workspace',
      ({ root, outside }) => {
        mkdirSync(path.join(outside, 'ws'));
        symlinkSync(outside, path.join(root, 'lnk'));
        return path.join(root, 'lnk', 'ws');
      },
    ],
    [
      'a file',
      'unsafe_workspace',
      ({ root }) => {
        writeFileSync(path.join(root, 'f'), 'x');
        return path.join(root, 'f');
      },
    ],
    [
      'the prefix trap: /srv/ws-evil beside the root /srv/ws',
      'workspace_outside_roots',
      ({ tmp }) => {
        mkdirSync(path.join(tmp, 'srv', 'ws-evil'));
        return path.join(tmp, 'srv', 'ws-evil');
      },
    ],
    ['`..` climbing out of the root', 'workspace_outside_roots', ({ root }) => `${root}/x/../../../outside`],
    ['the root itself', 'workspace_outside_roots', ({ root }) => root],
  ];
  test.each(refusals)('refuses %s (%s) and leaves the host as it was', async (_label, code, make) => {
    const ws = make({ root, outside, tmp });
    const before = snapshotTree(tmp);
    await expect(ensureWorkspaceDir(ws, owners, [root])).rejects.toMatchObject({ code });
    expect(snapshotTree(tmp)).toEqual(before);
  });

  test.each<[string, string]>([
    ['/etc', '/etc'],
    ['/usr/local/bin', '/usr/local/bin'],
    ['/boot', '/boot'],
    ['/root/.ssh', '/root'],
  ])('refuses the system directory %s, outside the roots, and leaves it as it was', async (ws, watched) => {
    const before = snapshotTree(watched, false);
    await expect(ensureWorkspaceDir(ws, owners, [root])).rejects.toMatchObject({ code: 'workspace_outside_roots' });
    await expect(ensureWorkspaceDir(ws, owners, ['/'])).rejects.toMatchObject({ code: 'unsafe_workspace' });
    expect(snapshotTree(watched, false)).toEqual(before); // the directory, or its parent's entries for a missing one
  });

  it('refuses when no roots are given (fail closed)', async () => {
    await expect(ensureWorkspaceDir(path.join(root, 'x'), owners)).rejects.toMatchObject({ code: 'workspace_outside_roots' });
    expect(existsSync(path.join(root, 'x'))).toBe(false);
  });
});
