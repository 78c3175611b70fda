import { randomBytes } from 'node:crypto';
import { closeSync, constants as fsc, openSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { isFdAt, removeFileIfPresent } from '../state/state-dir';
import { tmuxConst, tmuxConsts, tmuxPane, tmuxPath, type TmuxWord } from './tmux-words';

/** What a paste needs of its tmux server: one control-mode command at a time, and the private buffers directory. */
export interface PasteTarget {
  command(words: readonly TmuxWord[]): Promise<readonly string[]>;
  readonly buffersDir: string;
}

/**
 * docs/runners.md TUI delivery: text → 0600 file in `tmux/buffers/` → `load-buffer` → `paste-buffer -d -p`
 * (bracketed when the pane asked for it); the file is always deleted. The load and the paste go out together
 * (one round trip before the pane reads the text): tmux runs a client's commands in order, and a load that
 * failed leaves no buffer of that (random, unique) name, so the paste fails too and pastes nothing.
 */
export async function pasteIntoPane(target: PasteTarget, paneId: string, text: string): Promise<void> {
  const bufferId = `gs-${randomBytes(12).toString('hex')}`;
  const file = path.join(target.buffersDir, bufferId);
  writePrivateFile(file, text);
  try {
    const [loaded, pasted] = await Promise.allSettled([
      target.command([...tmuxConsts('load-buffer', '-b', bufferId), tmuxPath(file, { formatExpanded: true })]),
      target.command([...tmuxConsts('paste-buffer', '-d', '-p', '-b', bufferId, '-t'), tmuxPane(paneId)]),
    ]);
    if (loaded.status === 'rejected') throw loaded.reason;
    if (pasted.status === 'rejected') {
      // best-effort: a buffer left loaded dies with this tmux server, which only the server's uid can reach
      await target.command(tmuxConsts('delete-buffer', '-b', bufferId)).catch(() => undefined);
      throw pasted.reason;
    }
  } finally {
    await removeFileIfPresent(file);
  }
}

/** Presses Enter in the pane (`send-keys Enter`: a key, never text). */
export async function pressEnterInPane(target: PasteTarget, paneId: string): Promise<void> {
  await target.command([...tmuxConsts('send-keys', '-t'), tmuxPane(paneId), tmuxConst('Enter')]);
}

/**
 * The paste's 0600 buffer file, written synchronously: it is small and on the delivery's critical path, where
 * four thread-pool round trips (open, the `/proc` check, write, close) cost more than the writes themselves
 * on a busy host. Created exclusively, never through a link, and checked to be the file opened.
 */
function writePrivateFile(file: string, text: string): void {
  const fd = openSync(file, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
  try {
    if (!isFdAt(fd, file)) throw new RunnerError('state_dir_unsafe', `${file} was replaced while opening`, { details: { path: file } });
    writeFileSync(fd, text, 'utf8');
  } finally {
    closeSync(fd);
  }
}
