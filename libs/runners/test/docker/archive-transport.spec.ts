/**
 * The Docker archive transport and the remote-workspace port against a real engine: a container of the test
 * image (uid 1000) with its workspace on a named volume; hostile receipts and mailboxes planted INSIDE the
 * container end in the documented refusal; valid inbox/outbox/receipt round trips arrive byte for byte.
 */
import { promises as fsp, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type Docker from 'dockerode';
import type { Container } from 'dockerode';
import { DONE_MAX_BYTES, REPLY_MAX_BYTES, newTurnId } from '@genswarms/receipts';
import { execArgv } from '../../src/lib/docker/archive-exec';
import { dockerArchiveTransport } from '../../src/lib/docker/archive-transport';
import { remoteWorkspace } from '../../src/lib/remote/remote-workspace';
import type { RemoteWorkspace, RemoteWorkspaceTransport } from '../../src/lib/remote/workspace-port';
import { TEST_IMAGE, describeIfEngine } from './docker-support';

jest.setTimeout(120_000);

const LABEL = { 'genswarms.test': 'archive-transport' };
const OWNER = { uid: 1000, gid: 1000 };
const NODE = '/usr/bin/node';

let docker: Docker;
let container: Container;
let volume: string;
let t: RemoteWorkspaceTransport;
let seq = 0;

/** Runs argv in the container as the agent (uid 1000) or root: the hostile side of the tests. */
async function inContainer(argv: string[], user = '1000:1000'): Promise<void> {
  await execArgv(container, argv, user, 60_000);
}
/** `node -e <script> <args…>` in the container, as the agent. */
async function nodeIn(script: string, ...args: string[]): Promise<void> {
  await inContainer([NODE, '-e', script, ...args]);
}
/** Plants a file as the agent would: uid 1000, through the engine (faster than a node process per file). */
async function writeIn(p: string, content: string | Buffer): Promise<void> {
  await t.writeNewFile(p, Buffer.from(content));
}
/** A file of `size` copies of one character. */
async function fillIn(p: string, size: number, ch = 'a'): Promise<void> {
  await writeIn(p, Buffer.alloc(size, ch));
}

interface Fixture {
  readonly remote: string;
  readonly local: string;
  readonly ws: RemoteWorkspace;
}

async function fixture(): Promise<Fixture> {
  seq += 1;
  const remote = `/workspace/w${seq}`;
  await t.ensurePrivateDir(remote);
  const local = realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'gs-archive-')));
  return { remote, local, ws: remoteWorkspace(t, { remote, local }) };
}

async function turnDir(f: Fixture): Promise<{ turnId: string; dir: string }> {
  const turnId = newTurnId();
  await f.ws.prepareTurnDir(turnId);
  return { turnId, dir: `${f.remote}/.genswarms/turns/${turnId}` };
}

describeIfEngine('Docker archive transport (real engine, test image, uid 1000 in the container)', () => {
  beforeAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- dockerode has no ESM default under jest's CommonJS runtime
    const D = require('dockerode') as typeof Docker;
    docker = new D({ socketPath: '/var/run/docker.sock' });
    volume = `gs-archive-test-${process.pid}-${Date.now()}`;
    await docker.createVolume({ Name: volume, Labels: LABEL });
    container = await docker.createContainer({
      Image: TEST_IMAGE,
      Cmd: ['/bin/sleep', '3600'],
      User: '1000:1000',
      Labels: LABEL,
      NetworkDisabled: true,
      HostConfig: { ReadonlyRootfs: true, Mounts: [{ Type: 'volume', Source: volume, Target: '/workspace' }] },
    });
    await container.start();
    t = dockerArchiveTransport(container, { owner: OWNER });
  });

  afterAll(async () => {
    await container?.remove({ force: true }).catch(() => undefined); // best-effort cleanup of what this spec created
    if (volume !== undefined)
      await docker
        .getVolume(volume)
        .remove()
        .catch(() => undefined); // best-effort, as above
  });

  describe('round trips', () => {
    it('creates private directories owned by the container user, and writes + renames + reads a file back', async () => {
      const f = await fixture();
      expect(await t.lstat(f.remote)).toMatchObject({ kind: 'dir', mode: 0o700 });
      const data = Buffer.from('héllo\n'.repeat(1000));
      await t.writeNewFile(`${f.remote}/.x.upload`, data);
      await t.rename(`${f.remote}/.x.upload`, `${f.remote}/x.json`);
      expect(await t.lstat(`${f.remote}/.x.upload`)).toBeNull();
      expect(await t.lstat(`${f.remote}/x.json`)).toMatchObject({ kind: 'file', mode: 0o600, size: data.length });
      expect(await t.readBounded(`${f.remote}/x.json`, 1 << 20)).toEqual({ kind: 'ok', data });
      expect((await t.readdir(f.remote)).sort()).toEqual(['x.json']);
      // the agent (uid 1000) can read and replace what we wrote: it is its own file
      await inContainer(['/bin/cp', `${f.remote}/x.json`, `${f.remote}/copy.json`]);
      await t.remove(`${f.remote}/x.json`);
      await t.remove(`${f.remote}/absent.json`);
      expect((await t.readdir(f.remote)).sort()).toEqual(['copy.json']);
      expect(await t.readdir(`${f.remote}/nope`)).toEqual([]);
    });

    it('pushInbox delivers inbox and ask replies (temp + rename), once per change', async () => {
      const f = await fixture();
      await fsp.mkdir(path.join(f.local, '.inbox', 'replies'), { recursive: true });
      await fsp.writeFile(path.join(f.local, '.inbox', 'm1.json'), '{"from":"a"}');
      await fsp.writeFile(path.join(f.local, '.inbox', 'replies', 'r1.json'), '{"answer":1}');
      await f.ws.pushInbox();
      expect(await t.readBounded(`${f.remote}/.inbox/m1.json`, 1024)).toEqual({ kind: 'ok', data: Buffer.from('{"from":"a"}') });
      expect(await t.readBounded(`${f.remote}/.inbox/replies/r1.json`, 1024)).toEqual({ kind: 'ok', data: Buffer.from('{"answer":1}') });
      expect((await t.readdir(`${f.remote}/.inbox`)).sort()).toEqual(['m1.json', 'replies']);
      // the client consumes it; an unchanged local file is not sent again
      await t.remove(`${f.remote}/.inbox/m1.json`);
      await f.ws.pushInbox();
      expect(await t.lstat(`${f.remote}/.inbox/m1.json`)).toBeNull();
    });

    it('pullOutbox moves the client outbox into the local mirror and removes it remotely', async () => {
      const f = await fixture();
      await t.ensurePrivateDir(`${f.remote}/.outbox`);
      await writeIn(`${f.remote}/.outbox/0001.json`, '{"to":"b","body":"hi"}');
      await writeIn(`${f.remote}/.outbox/0002.json`, '{"to":"c"}');
      expect(await f.ws.pullOutbox()).toEqual({ moved: 2, refused: [] });
      expect(await fsp.readFile(path.join(f.local, '.outbox', '0001.json'), 'utf8')).toBe('{"to":"b","body":"hi"}');
      expect(await t.readdir(`${f.remote}/.outbox`)).toEqual([]);
    });

    it('readReceipt: pending, then the verified receipt parsed by the local reader', async () => {
      const f = await fixture();
      const { turnId, dir } = await turnDir(f);
      expect(await f.ws.readReceipt(turnId)).toEqual({ kind: 'pending' });
      await writeIn(`${dir}/reply.md`, 'the answer');
      await writeIn(`${dir}/done.json`, JSON.stringify({ v: 1, turn: turnId, status: 'ok' }));
      expect(await f.ws.readReceipt(turnId)).toEqual({ kind: 'ok', status: 'ok', reply: 'the answer' });
    });
  });

  describe('hostile receipts planted in the container', () => {
    type Plant = (dir: string, turnId: string, remote: string) => Promise<void>;
    const done = (turnId: string, status = 'ok'): string => JSON.stringify({ v: 1, turn: turnId, status });
    test.each<[string, Plant, Record<string, unknown>]>([
      [
        'done.json a symlink to /etc/passwd',
        (d) => inContainer(['/bin/ln', '-s', '/etc/passwd', `${d}/done.json`]),
        { reason: 'receipt_symlink', file: 'done.json' },
      ],
      [
        'done.json a symlink to a directory',
        (d) => inContainer(['/bin/ln', '-s', '/etc', `${d}/done.json`]),
        { reason: 'receipt_symlink', file: 'done.json' },
      ],
      [
        'reply.md a symlink to /etc/passwd',
        async (d, id) => {
          await inContainer(['/bin/ln', '-s', '/etc/passwd', `${d}/reply.md`]);
          await writeIn(`${d}/done.json`, done(id));
        },
        { reason: 'receipt_symlink', file: 'reply.md' },
      ],
      [
        'done.json a FIFO (never opened)',
        (d) => inContainer(['/bin/mkfifo', `${d}/done.json`]),
        { reason: 'receipt_not_regular', file: 'done.json' },
      ],
      ['done.json a directory', (d) => inContainer(['/bin/mkdir', `${d}/done.json`]), { reason: 'receipt_not_regular', file: 'done.json' }],
      ['done.json oversize', (d) => fillIn(`${d}/done.json`, DONE_MAX_BYTES + 1, ' '), { reason: 'receipt_too_large', file: 'done.json' }],
      [
        'reply.md oversize',
        async (d, id) => {
          await fillIn(`${d}/reply.md`, REPLY_MAX_BYTES + 1);
          await writeIn(`${d}/done.json`, done(id));
        },
        { reason: 'receipt_too_large', file: 'reply.md' },
      ],
      ['done.json not JSON', (d) => writeIn(`${d}/done.json`, '{not json'), { reason: 'receipt_malformed', file: 'done.json' }],
      [
        'done.json for another turn',
        (d) => writeIn(`${d}/done.json`, done(newTurnId())),
        { reason: 'receipt_turn_mismatch', file: 'done.json' },
      ],
      [
        'the turn directory swapped for a symlink',
        async (d, id, remote) => {
          await inContainer(['/bin/mkdir', '-p', `${remote}/elsewhere`]);
          await writeIn(`${remote}/elsewhere/done.json`, done(id));
          await inContainer(['/bin/rm', '-rf', d]);
          await inContainer(['/bin/ln', '-s', `${remote}/elsewhere`, d]);
        },
        { reason: 'receipt_symlink', file: 'directory' },
      ],
      [
        'the turns directory swapped for a symlink',
        async (d, id, remote) => {
          await inContainer(['/bin/mkdir', '-p', `${remote}/alt/${id}`]);
          await writeIn(`${remote}/alt/${id}/done.json`, done(id));
          await inContainer(['/bin/mv', `${remote}/.genswarms/turns`, `${remote}/old-turns`]);
          await inContainer(['/bin/ln', '-s', `${remote}/alt`, `${remote}/.genswarms/turns`]);
        },
        { reason: 'receipt_symlink', file: 'directory' },
      ],
    ])('%s → refused', async (_what, plant, expected) => {
      const f = await fixture();
      const { turnId, dir } = await turnDir(f);
      await plant(dir, turnId, f.remote);
      expect(await f.ws.readReceipt(turnId)).toEqual({ kind: 'refused', ...expected });
      // a file-level refusal mirrors nothing (malformed bytes are mirrored: the local reader is what refuses them)
      if (expected['reason'] !== 'receipt_malformed' && expected['reason'] !== 'receipt_turn_mismatch') {
        await expect(fsp.readFile(path.join(f.local, '.genswarms', 'turns', turnId, 'done.json'))).rejects.toMatchObject({
          code: 'ENOENT',
        });
      }
    });

    it('a reply.md growing while read is never accepted torn: refused (replaced or too large) on every look', async () => {
      const f = await fixture();
      const { turnId, dir } = await turnDir(f);
      await writeIn(`${dir}/reply.md`, 'start\n');
      await writeIn(`${dir}/done.json`, done(turnId));
      // the agent appends 4 KiB every millisecond for 20 s, detached (its own process; it dies with the container)
      const grow = `const fs=require("fs");const end=Date.now()+20000;const b=Buffer.alloc(4096,97);(function g(){fs.appendFileSync(process.argv[1],b);if(Date.now()<end)setTimeout(g,1)})()`;
      const exec = await container.exec({ Cmd: [NODE, '-e', grow, `${dir}/reply.md`], User: '1000:1000' });
      const started = (await exec.start({ Detach: true })) as { resume?: () => void } | undefined;
      started?.resume?.(); // the detached start still answers with a (short) stream: drain it so no socket stays open
      await new Promise((r) => setTimeout(r, 300));
      const seen = new Set<string>();
      for (let i = 0; i < 10; i += 1) {
        const r = await f.ws.readReceipt(turnId);
        seen.add(r.kind === 'refused' ? `${r.reason}:${r.file ?? ''}` : r.kind);
      }
      expect([...seen].every((s) => s === 'receipt_replaced:reply.md' || s === 'receipt_too_large:reply.md')).toBe(true);
    });

    it('a hardlinked receipt: a link to a file outside the volume cannot be made (EXDEV); inside, it reads as its bytes', async () => {
      const f = await fixture();
      const { turnId, dir } = await turnDir(f);
      await expect(inContainer(['/bin/ln', '/etc/passwd', `${dir}/done.json`])).rejects.toMatchObject({ code: 'remote_transport_failed' });
      expect(await f.ws.readReceipt(turnId)).toEqual({ kind: 'pending' });
      // a link to the agent's own file in its own workspace: the archive API carries no link count (docs/receipts.md)
      await writeIn(`${f.remote}/mine.json`, done(turnId, 'error'));
      await inContainer(['/bin/ln', `${f.remote}/mine.json`, `${dir}/done.json`]);
      expect(await f.ws.readReceipt(turnId)).toEqual({ kind: 'ok', status: 'error', reply: null });
    });
  });

  describe('hostile mailboxes and names', () => {
    it('refuses outbox links, FIFOs and oversize files (removed remotely, never mirrored; link targets untouched)', async () => {
      const f = await fixture();
      await t.ensurePrivateDir(`${f.remote}/.outbox`);
      await writeIn(`${f.remote}/target.txt`, 'keep me');
      await inContainer(['/bin/ln', '-s', `${f.remote}/target.txt`, `${f.remote}/.outbox/a-link.json`]);
      await inContainer(['/bin/ln', '-s', '/etc/passwd', `${f.remote}/.outbox/b-passwd.json`]);
      await inContainer(['/bin/mkfifo', `${f.remote}/.outbox/c-fifo.json`]);
      await fillIn(`${f.remote}/.outbox/d-big.json`, 1_048_577, ' ');
      await writeIn(`${f.remote}/.outbox/e-ok.json`, '{"ok":true}');
      expect(await f.ws.pullOutbox()).toEqual({ moved: 1, refused: ['a-link.json', 'b-passwd.json', 'c-fifo.json', 'd-big.json'] });
      expect((await fsp.readdir(path.join(f.local, '.outbox'))).sort()).toEqual(['e-ok.json']);
      expect(await t.readdir(`${f.remote}/.outbox`)).toEqual([]);
      expect(await t.readBounded(`${f.remote}/target.txt`, 100)).toEqual({ kind: 'ok', data: Buffer.from('keep me') });
    });

    it('names with shell metacharacters are never listed for moving and never run: nothing is executed, the files stay', async () => {
      const f = await fixture();
      await t.ensurePrivateDir(`${f.remote}/.outbox`);
      const hostile = ['$(touch PWNED).json', 'a;touch PWNED.json', '`touch PWNED`.json', '-rf.json', '..json.json'];
      // planted by the agent itself: the transport would refuse to write such names (remote_path_invalid)
      await nodeIn(
        'for (const n of process.argv.slice(2)) require("fs").writeFileSync(process.argv[1] + "/" + n, "{}")',
        `${f.remote}/.outbox`,
        ...hostile,
      );
      const res = await f.ws.pullOutbox();
      expect(res).toEqual({ moved: 0, refused: [] }); // none fits the mailbox name pattern: not even read
      expect((await t.readdir(`${f.remote}/.outbox`)).sort()).toEqual([...hostile].sort());
      expect(await t.lstat(`${f.remote}/PWNED`)).toBeNull();
      expect(await t.lstat('/workspace/PWNED')).toBeNull();
    });

    test.each([
      ['NUL', '/workspace/a\0b.json'],
      ['..', '/workspace/w1/../../etc/passwd'],
      ['shell syntax', '/workspace/$(reboot).json'],
      ['a space and ;', '/workspace/a; rm -rf x'],
      ['relative', 'workspace/a.json'],
    ])('refuses a path with %s before any engine call (remote_path_invalid)', async (_what, p) => {
      for (const op of [
        () => t.lstat(p),
        () => t.readBounded(p, 10),
        () => t.remove(p),
        () => t.rename(p, '/workspace/x'),
        () => t.readdir(p),
        () => t.ensurePrivateDir(p),
        () => t.writeNewFile(p, Buffer.from('x')),
      ]) {
        await expect(op()).rejects.toMatchObject({ code: 'remote_path_invalid' });
      }
    });

    it('a tar bomb of many outbox entries: the listing stops at its entry bound (a prefix in the engine walk order)', async () => {
      const f = await fixture();
      await t.ensurePrivateDir(`${f.remote}/.outbox`);
      const cap = 100;
      const n = cap + 400;
      await nodeIn(
        'const fs=require("fs");for(let i=0;i<+process.argv[2];i++)fs.writeFileSync(process.argv[1]+"/"+String(i).padStart(6,"0")+".json","{}")',
        `${f.remote}/.outbox`,
        String(n),
      );
      const small = dockerArchiveTransport(container, { owner: OWNER, listMaxEntries: cap });
      const listed = await small.readdir(`${f.remote}/.outbox`);
      // the engine walks in lexical order: the first `cap` headers are the directory itself and the first names
      expect(listed).toEqual(Array.from({ length: cap - 1 }, (_, i) => `${String(i).padStart(6, '0')}.json`));
    });
  });

  describe('private directories', () => {
    test.each<[string, (p: string) => Promise<void>]>([
      ['group/world bits', (p) => inContainer(['/bin/mkdir', '-m', '0755', p])],
      ['a symlink to a private directory', (p) => inContainer(['/bin/ln', '-s', '/tmp', p])],
      ['owned by root', (p) => inContainer(['/bin/mkdir', '-m', '0700', p], '0:0')],
      ['a regular file', (p) => writeIn(p, 'x')],
    ])('refuses an existing %s (state_dir_unsafe, never chmod-ed into shape)', async (_what, plant) => {
      const f = await fixture();
      const p = `${f.remote}/.inbox`;
      await plant(p);
      await expect(t.ensurePrivateDir(p)).rejects.toMatchObject({ code: 'state_dir_unsafe' });
    });
  });
});
