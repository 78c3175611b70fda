/**
 * `paste` sends `load-buffer` and
 * `paste-buffer` together — one round trip before the pane has the text, not two — and still never presses
 * Enter after a paste that failed, nor leaves its buffer loaded.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { TmuxServer } from '../../src/lib/tmux/tmux-server';
import { tmuxConst, tmuxFormat, tmuxPath } from '../../src/lib/tmux/tmux-words';
import { describeIfBinaries, makeTestEnv, type TmuxTestEnv } from './tmux-support';
import { waitFor } from '@genswarms/test-kit';

describeIfBinaries(['tmux'])('tmux paste: load and paste pipelined', () => {
  let env: TmuxTestEnv;
  let server: TmuxServer;
  /** Each command as sent, with how many earlier commands were still unanswered at that moment. */
  let sent: { verb: string; inFlight: number }[];
  beforeAll(async () => {
    env = await makeTestEnv('pastepipe');
    server = await TmuxServer.open({ home: env.home, tmux: '/usr/bin/tmux' });
    sent = [];
    let inFlight = 0;
    const command = server.command.bind(server);
    jest.spyOn(server, 'command').mockImplementation((words) => {
      sent.push({ verb: words[0]?.text ?? '', inFlight });
      inFlight += 1;
      return command(words).finally(() => {
        inFlight -= 1;
      });
    });
  });
  afterAll(async () => {
    await server.kill();
    await env.cleanup();
  });

  it('sends the paste before the load is answered; the pane reads the text, then gets Enter', async () => {
    const out = path.join(env.workspace, 'read.txt');
    const script = path.join(env.workspace, 'reader.sh');
    writeFileSync(script, `while IFS= read -r line; do printf '%s\\n' "$line" >> ${out}; done\n`);
    const pane = await server.createWindow('pp', 'reader', env.workspace, [tmuxPath('/bin/sh'), tmuxPath(script)]);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the shell starts reading
    sent.length = 0;
    await server.paste(pane.paneId, 'first line\nsecond line');
    expect(sent.map((s) => s.verb)).toEqual(['load-buffer', 'paste-buffer', 'send-keys']);
    expect(sent[1]?.inFlight).toBe(1); // the load was still unanswered: both went out together
    expect(sent[2]?.inFlight).toBe(0); // Enter only once the paste was answered
    const text = await waitFor(
      () => (existsSync(out) && readFileSync(out, 'utf8').includes('second line') ? readFileSync(out, 'utf8') : undefined),
      'the read',
    );
    expect(text).toBe('first line\nsecond line\n');
    expect(readdirSync(path.join(env.home, 'tmux', 'buffers'))).toEqual([]);
  });

  it('a paste to a pane that is gone fails: no Enter, the loaded buffer deleted, no file left', async () => {
    sent.length = 0;
    await expect(server.paste('%999999', 'lost')).rejects.toThrow(/paste-buffer/);
    expect(sent.map((s) => s.verb)).toEqual(['load-buffer', 'paste-buffer', 'delete-buffer']);
    const buffers = await server.command([tmuxConst('list-buffers'), tmuxConst('-F'), tmuxFormat('#{buffer_name}')]);
    expect(buffers.filter((b) => b.startsWith('gs-'))).toEqual([]);
    expect(readdirSync(path.join(env.home, 'tmux', 'buffers'))).toEqual([]);
  });
});
