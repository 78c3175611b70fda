import { promises as fsp, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../../src/lib/errors/runner-error';
import { TmuxServer } from '../../src/lib/tmux/tmux-server';
import { buildTmuxCommand, tmuxConst, tmuxConsts, tmuxFormat, tmuxName, tmuxPath, tmuxSessionTarget } from '../../src/lib/tmux/tmux-words';
import { describeIfBinaries, FIXTURES_DIR, makeTestEnv, NODE, waitFor, type TmuxTestEnv } from './tmux-support';

/** tmux client processes (`tmux ... -C` or any other) talking to `socket`, found via /proc. */
function tmuxClientsOf(socket: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let words: string[];
    try {
      words = readFileSync(`/proc/${entry}/cmdline`).toString('utf8').split('\0');
    } catch {
      continue; // exited while we looked
    }
    const isTmux = path.basename(words[0] ?? '') === 'tmux';
    let comm = '';
    try {
      comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue; // exited while we looked
    }
    // The server is forked from the first client: same cmdline, but its comm is "tmux: server".
    if (isTmux && comm !== 'tmux: server' && words.includes(socket)) pids.push(Number(entry));
  }
  return pids;
}

describeIfBinaries(['tmux'])('TmuxControlClient + TmuxServer (real tmux)', () => {
  let env: TmuxTestEnv;
  let server: TmuxServer;

  beforeAll(async () => {
    env = await makeTestEnv('ctl');
    server = await TmuxServer.open({ home: env.home, tmux: '/usr/bin/tmux' });
  });
  afterAll(async () => {
    await server.kill();
    await env.cleanup();
  });

  it('creates the socket directory 0700 and the socket under $home/tmux', async () => {
    const dir = await fsp.stat(path.join(env.home, 'tmux'));
    expect(dir.mode & 0o777).toBe(0o700);
    expect((await fsp.lstat(server.socketPath)).isSocket()).toBe(true);
  });

  it('sets an empty update-environment and keeps dead panes (remain-on-exit)', async () => {
    expect(await server.command([...tmuxConsts('show-options', '-g', '-v', 'update-environment')])).toEqual([]);
    expect(await server.command([...tmuxConsts('show-options', '-g', '-v', 'remain-on-exit')])).toEqual(['on']);
    expect(await server.command([...tmuxConsts('show-options', '-g', '-v', 'allow-rename')])).toEqual(['off']);
  });

  it('rejects a failing command with runner_error and keeps answering later commands in order', async () => {
    const bad = server.command([...tmuxConsts('kill-window', '-t'), tmuxSessionTarget('nosuchsession')]);
    const good = server.command([...tmuxConsts('display-message', '-p'), tmuxFormat('#{session_name}')]);
    await expect(bad).rejects.toMatchObject({ code: 'runner_error' });
    await expect(good).resolves.toEqual(['_genswarms']);
  });

  it.each([
    ['command substitution', '/d/$(touch x)'],
    ['backticks', '/d/`id`'],
    ['separator', '/d/a;b'],
    ['format', '/d/#{session_name}'],
    ['tilde', '/~root'],
    ['variable', '/$HOME'],
    ['braces', '/d/{x}'],
    ['double quote', '/d/"x"'],
    ['backslash', '/d/a\\b'],
    ['spaces', '/d/a b'],
    ['unicode', '/d/ünï—çødé'],
  ])('quotes a host path with %s literally (load-buffer round trip)', async (_label, suffix) => {
    const dir = path.join(env.workspace, 'paths');
    const file = path.join(dir, suffix.slice(1).replaceAll('/', '_'));
    await fsp.mkdir(dir, { recursive: true });
    await fsp.writeFile(file, `content of ${suffix}`);
    await server.command([...tmuxConsts('load-buffer', '-b', 'quotetest'), tmuxPath(file, { formatExpanded: true })]);
    const saved = path.join(env.workspace, 'saved-buffer');
    await server.command([...tmuxConsts('save-buffer', '-b', 'quotetest'), tmuxPath(saved, { formatExpanded: true })]);
    expect(await fsp.readFile(saved, 'utf8')).toBe(`content of ${suffix}`);
    await server.command(tmuxConsts('delete-buffer', '-b', 'quotetest'));
  });

  it('drives 50 windows through ONE tmux client process', async () => {
    const before = tmuxClientsOf(server.socketPath);
    expect(before).toEqual([server.control.pid]);
    for (let i = 0; i < 50; i++) {
      await server.createWindow('many', `w${i}`, env.workspace, [tmuxPath('/bin/sleep'), tmuxConst('600')]);
    }
    const panes = (await server.listPanes()).filter((p) => p.session === 'many');
    expect(panes).toHaveLength(50);
    expect(tmuxClientsOf(server.socketPath)).toEqual([server.control.pid]);
    expect(await server.command([...tmuxConsts('list-clients', '-F'), tmuxFormat('#{client_pid}')])).toHaveLength(1);
    for (const pane of panes) await server.killWindow(pane.paneId);
    expect((await server.listPanes()).filter((p) => p.session === 'many')).toHaveLength(0);
  });

  it('streams a pane output as bytes, including escaped and non-ASCII bytes', async () => {
    const chunks: Buffer[] = [];
    // (A client that exits at once can lose its last output in control mode: the fixture stays alive.)
    const bytes = Buffer.concat([Buffer.from('tab\there back\\slash \x01 ünï '), Buffer.from([0xe2, 0x82, 0xac]), Buffer.from('\n')]);
    const ref = await server.createWindow('out', 'printer', env.workspace, [
      tmuxPath(NODE),
      tmuxPath(path.join(FIXTURES_DIR, 'print-stay.js')),
      tmuxConst(bytes.toString('hex')),
    ]);
    const off = server.control.onPaneOutput(ref.paneId, (d) => chunks.push(d));
    const got = await waitFor(() => {
      const all = Buffer.concat(chunks);
      return all.includes(0x0a) ? all : undefined;
    }, 'printed bytes');
    off();
    // The pty turns LF into CR LF; every other byte arrives unchanged.
    expect(got).toEqual(Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from('\r\n')]));
    await server.killWindow(ref.paneId);
  });

  it('refuses to create a window whose name is taken by a live pane', async () => {
    const ref = await server.createWindow('dup', 'a', env.workspace, [tmuxPath('/bin/sleep'), tmuxConst('600')]);
    await expect(server.createWindow('dup', 'a', env.workspace, [tmuxPath('/bin/sleep'), tmuxConst('600')])).rejects.toMatchObject({
      code: 'start_failed',
    });
    await server.killWindow(ref.paneId);
  });

  it('builds command lines only from TmuxWords', () => {
    expect(() => buildTmuxCommand([{ text: 'kill-server ; run-shell x' } as never])).toThrow(RunnerError);
    expect(buildTmuxCommand([tmuxConst('kill-window'), tmuxConst('-t'), tmuxName('abc')])).toBe('kill-window -t abc');
  });
});
