import { tmuxSocketPath } from './tmux-server';
import { tmuxWindowTarget } from './tmux-words';

/**
 * docs/cli.md `genswarms attach`: `tmux -S <home>/tmux/tmux.sock attach-session -r -t =<swarm>:=<agent>`
 * (read-only unless `write`; `server` = the session description's `tmuxServer`, whose socket is
 * `tmux-<server>.sock`). An argv for `spawn`, never a shell string.
 */
export function tmuxAttachArgv(home: string, swarm: string, agent: string, write = false, tmux = 'tmux', server = 0): readonly string[] {
  const target = tmuxWindowTarget(swarm, agent).text;
  return [tmux, '-S', tmuxSocketPath(home, server), 'attach-session', ...(write ? [] : ['-r']), '-t', target];
}
