/**
 * A root host writing into an agent's workspace (the uid rule: agents never run as uid 0) hands what it
 * creates there to the workspace owner, so the non-root agent can read and remove its inbox; a workspace
 * the host owns itself is left exactly as before.
 */
import { chown, mkdir, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileUnder } from '../src/index';

const AGENT = { uid: 4711, gid: 4712 };
const isRoot = process.getuid?.() === 0;

(isRoot ? describe : describe.skip)('writeFileUnder into a workspace owned by another uid (root host)', () => {
  let root: string;
  let ws: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'gs-ws-owner-')));
    ws = join(root, 'ws');
    await mkdir(ws, { mode: 0o700 });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates the directories and the file as the workspace owner, 0700/0600', async () => {
    await chown(ws, AGENT.uid, AGENT.gid);
    expect(await writeFileUnder(ws, ['.inbox', 'replies'], 'r.json', '{}')).toMatchObject({ kind: 'ok' });
    for (const p of [join(ws, '.inbox'), join(ws, '.inbox', 'replies')])
      expect(await stat(p)).toMatchObject({ uid: AGENT.uid, gid: AGENT.gid });
    const file = await stat(join(ws, '.inbox', 'replies', 'r.json'));
    expect({ uid: file.uid, gid: file.gid, mode: file.mode & 0o777 }).toEqual({ uid: AGENT.uid, gid: AGENT.gid, mode: 0o600 });
  });

  it("hands over a directory the host made there earlier (root's), never one of a third uid", async () => {
    await mkdir(join(ws, '.inbox'), { mode: 0o700 }); // an earlier run's, as root
    await chown(ws, AGENT.uid, AGENT.gid);
    expect(await writeFileUnder(ws, ['.inbox'], 'a.json', '{}')).toMatchObject({ kind: 'ok' });
    expect((await stat(join(ws, '.inbox'))).uid).toBe(AGENT.uid);
    await mkdir(join(ws, 'third'), { mode: 0o700 });
    await chown(join(ws, 'third'), 5555, 5555);
    expect(await writeFileUnder(ws, ['third'], 'a.json', '{}')).toMatchObject({ kind: 'refused', reason: 'inbox_unsafe' });
    expect((await stat(join(ws, 'third'))).uid).toBe(5555);
  });

  it('keeps everything root-owned in a workspace root owns', async () => {
    expect(await writeFileUnder(ws, ['.inbox'], 'a.json', '{}')).toMatchObject({ kind: 'ok' });
    expect((await stat(join(ws, '.inbox'))).uid).toBe(0);
    expect((await stat(join(ws, '.inbox', 'a.json'))).uid).toBe(0);
  });
});
