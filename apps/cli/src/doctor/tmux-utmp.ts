import { noUtmpLibrary, type NoUtmpLibrary } from '@genswarms/procctl';
import type { Check } from './probes';

/**
 * Whether the tmux servers genswarms starts will run without utmp records: the no-utmp shim of @genswarms/procctl is
 * built and may be preloaded (docs/runners.md). Without it tmux still works, forking and exec'ing the setgid utmp
 * helper for every pane it creates or destroys (most of the CPU of starting and stopping 1,000 panes).
 */
export function checkTmuxUtmp(find: () => NoUtmpLibrary = noUtmpLibrary): Check {
  const shim = find();
  if (shim.kind === 'ok')
    return { name: 'tmux utmp', status: 'ok', detail: `no utmp records for agent panes (${shim.path} preloaded into tmux servers)` };
  return {
    name: 'tmux utmp',
    status: 'missing',
    detail: `tmux servers record every pane in utmp (a fork and exec per pane created or destroyed): ${shim.reason}`,
  };
}
