/**
 * A workspace the operator names is planned only below a workspace root (docs/security.md "Workspace roots"):
 * outside → `workspace_outside_roots` naming the roots; a link below the root, a third uid, a system directory
 * or GENSWARMS_HOME → `unsafe_workspace`. Planning reads metadata only: the host is left exactly as it was.
 */
import { chownSync, linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { planNamedWorkspace, RunnerError, type RunnerContext } from '../../src/index';
import { makeContext } from '../support';
import { snapshotTree } from '@genswarms/tools';
import { codeOf, refusal } from '@genswarms/test-kit';

const isRoot = process.getuid?.() === 0;
const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gs-named-ws-')));
const home = path.join(tmp, 'home');
const root = path.join(tmp, 'srv', 'ws');
const evil = path.join(tmp, 'srv', 'ws-evil');
const outside = path.join(tmp, 'outside');
const who = { swarm: 's', agent: 'a' };
let ctx: RunnerContext;

beforeAll(() => {
  for (const d of [home, root, evil, outside, path.join(root, 'real'), path.join(root, 'mine'), path.join(root, 'deep', 'er')])
    mkdirSync(d, { recursive: true, mode: 0o700 });
  symlinkSync(outside, path.join(root, 'out')); // a link inside the root pointing out
  symlinkSync(path.join(root, 'real'), path.join(root, 'in')); // a link inside the root pointing in
  symlinkSync(path.join(tmp, 'srv'), path.join(tmp, 'alias')); // a link above the root
  writeFileSync(path.join(root, 'file'), 'x');
  linkSync(path.join(root, 'file'), path.join(outside, 'file-link'));
  mkdirSync(path.join(root, 'theirs'));
  mkdirSync(path.join(root, 'their-parent', 'ws'), { recursive: true });
  mkdirSync(path.join(root, 'agents'));
  if (isRoot) {
    chownSync(path.join(root, 'theirs'), 4242, 4242);
    chownSync(path.join(root, 'their-parent'), 4242, 4242);
    chownSync(path.join(root, 'agents'), 65532, 65532);
  }
  ctx = makeContext(home, { workspaceRoots: [root] });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('planNamedWorkspace', () => {
  test.each<[string, () => string, () => string]>([
    ['a missing directory below the root', () => path.join(root, 'new', 'ws'), () => path.join(root, 'new', 'ws')],
    ['an existing server-owned directory', () => path.join(root, 'mine'), () => path.join(root, 'mine')],
    ['a nested one', () => path.join(root, 'deep', 'er'), () => path.join(root, 'deep', 'er')],
    ['a path through a link above the root', () => path.join(tmp, 'alias', 'ws', 'mine'), () => path.join(root, 'mine')],
    [
      "the agent's own default workspace, outside the roots",
      () => path.join(home, 'workspaces', 's', 'a'),
      () => path.join(home, 'workspaces', 's', 'a'),
    ],
  ])('plans %s', (_label, written, real) => {
    const before = snapshotTree(tmp);
    expect(planNamedWorkspace(written(), who, ctx)).toBe(real());
    expect(snapshotTree(tmp)).toEqual(before);
  });

  test.each<[string, () => string]>([
    ['/etc', () => '/etc'],
    ['/usr/local/bin', () => '/usr/local/bin'],
    ['/root/.ssh', () => '/root/.ssh'],
    ['/boot', () => '/boot'],
    ['/var/spool/cron', () => '/var/spool/cron'],
    ['/', () => '/'],
    ['the root itself (a workspace lies strictly below)', () => root],
    ['the prefix trap: /srv/ws-evil beside /srv/ws', () => path.join(evil, 'x')],
    ['`..` climbing out of the root', () => `${root}/x/../../../outside`],
    ['a link inside the root pointing out', () => path.join(root, 'out')],
    ['below a link inside the root pointing out', () => path.join(root, 'out', 'ws')],
    ['another swarm’s default workspace when the roots leave out <home>/workspaces', () => path.join(home, 'workspaces', 's', 'b')],
  ])('refuses %s with workspace_outside_roots naming the roots', (_label, written) => {
    const before = snapshotTree(tmp);
    expect(refusal(RunnerError, () => planNamedWorkspace(written(), who, ctx))).toMatchObject({
      code: 'workspace_outside_roots',
      details: { path: written(), roots: [root] },
    });
    expect(snapshotTree(tmp)).toEqual(before);
  });

  test.each<[string, () => string, boolean]>([
    ['a link inside the root pointing inside', () => path.join(root, 'in'), false],
    ['below a link inside the root pointing inside', () => path.join(root, 'in', 'ws'), false],
    ['a file', () => path.join(root, 'file'), false],
    ['below a file', () => path.join(root, 'file', 'ws'), false],
    ['a relative path', () => 'srv/ws/x', false],
    ['NUL', () => `${root}/x\0y`, false],
    ['a newline', () => `${root}/x\ny`, false],
    ['a directory of another uid', () => path.join(root, 'theirs'), true],
    ['below a directory of another uid', () => path.join(root, 'their-parent', 'ws'), true],
    ['below a directory of the agent uid (another agent’s workspace)', () => path.join(root, 'agents', 'ws'), true],
  ])('refuses %s with unsafe_workspace', (_label, written, needsRoot) => {
    if (needsRoot && !isRoot) return; // chown to another uid needs a root test process
    const before = snapshotTree(tmp);
    expect(codeOf(RunnerError, () => planNamedWorkspace(written(), who, ctx))).toBe('unsafe_workspace');
    expect(snapshotTree(tmp)).toEqual(before);
  });

  it('refuses a named workspace inside GENSWARMS_HOME other than the own default, even with <home>/workspaces a root', () => {
    const c = makeContext(home, { workspaceRoots: [path.join(home, 'workspaces')] });
    expect(codeOf(RunnerError, () => planNamedWorkspace(path.join(home, 'workspaces', 'other', 'b'), who, c))).toBe('unsafe_workspace');
    expect(planNamedWorkspace(path.join(home, 'workspaces', 's', 'a'), who, c)).toBe(path.join(home, 'workspaces', 's', 'a'));
  });

  it('refuses a system directory even below a root an embedder put above it (the app refuses such roots at boot)', () => {
    const c = makeContext(home, { workspaceRoots: ['/'] });
    for (const p of ['/etc/x', '/usr/local/bin', '/boot/grub', '/tmp', '/var/spool/cron'])
      expect([p, codeOf(RunnerError, () => planNamedWorkspace(p, who, c))]).toEqual([p, 'unsafe_workspace']);
  });

  it('uses <home>/workspaces when the context names no roots', () => {
    const c = makeContext(home, { workspaceRoots: undefined });
    const { workspaceRoots: _w, ...bare } = c;
    expect(refusal(RunnerError, () => planNamedWorkspace(path.join(root, 'mine'), who, bare))).toMatchObject({
      code: 'workspace_outside_roots',
      details: { roots: [path.join(home, 'workspaces')] },
    });
  });
});
