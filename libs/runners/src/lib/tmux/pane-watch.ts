import { paneDeathOf, type PaneDeath } from './pane-state';

/** The control-mode subscription that reports each pane's death (`refresh-client -B`, tmux ≥ 3.2). */
export const DEAD_SUBSCRIPTION = 'gs-dead';
/** Evaluated by tmux for every pane of the attached session, about once a second; only changes are sent. */
export const DEAD_FORMAT = '#{pane_dead} #{pane_dead_status} #{pane_dead_signal}';

/** A pane watcher: its death (dead: true), or undefined once the pane is gone. */
export type PaneWatcher = (state: PaneDeath | undefined) => void;

/**
 * `%subscription-changed gs-dead $<s> @<w> <index> %<p> : <dead> <status> <signal>` → pane, window and
 * death; undefined for another subscription or a line of any other shape.
 */
export function parseDeadNotification(args: string): { paneId: string; windowId: string; death: PaneDeath } | undefined {
  const split = args.indexOf(' : ');
  if (split === -1) return undefined;
  const [name, , windowId, , paneId] = args.slice(0, split).split(' ');
  if (name !== DEAD_SUBSCRIPTION || !/^@\d+$/.test(windowId ?? '') || !/^%\d+$/.test(paneId ?? '')) return undefined;
  const [dead = '', status = '', signal = ''] = args.slice(split + 3).split(' ');
  return { paneId: paneId as string, windowId: windowId as string, death: paneDeathOf(dead, status, signal) };
}

/**
 * Pane watchers fed by control-mode notifications instead of a `list-panes -a` per poll (2,002
 * lines every 500 ms at 1,000 panes): a death comes from the subscription, a removed window from
 * `%window-close` / `%unlinked-window-close`. A death reported before its watcher subscribed is kept and
 * delivered on subscription.
 */
export class PaneWatchers {
  private readonly watchers = new Map<string, Set<PaneWatcher>>();
  private readonly deaths = new Map<string, PaneDeath>();
  private readonly windowOf = new Map<string, string>();

  /** Feeds one control-mode notification. */
  onNotification(name: string, args: string): void {
    if (name === 'subscription-changed') {
      const n = parseDeadNotification(args);
      if (n === undefined) return;
      this.windowOf.set(n.paneId, n.windowId);
      if (!n.death.dead) {
        this.deaths.delete(n.paneId);
        return;
      }
      this.deaths.set(n.paneId, n.death);
      this.notify(n.paneId, n.death);
    } else if (name === 'window-close' || name === 'unlinked-window-close') {
      const windowId = args.split(' ')[0];
      for (const [paneId, w] of [...this.windowOf]) {
        if (w !== windowId) continue;
        this.windowOf.delete(paneId);
        this.deaths.delete(paneId);
        this.notify(paneId, undefined);
      }
    }
  }

  /** Records which window holds a pane (its close then reaches the pane's watchers). */
  remember(paneId: string, windowId: string): void {
    this.windowOf.set(paneId, windowId);
  }

  /** Calls `watcher` on the pane's death or removal until unsubscribed. */
  watch(paneId: string, watcher: PaneWatcher): () => void {
    let set = this.watchers.get(paneId);
    if (set === undefined) {
      set = new Set();
      this.watchers.set(paneId, set);
    }
    set.add(watcher);
    const known = this.deaths.get(paneId);
    if (known !== undefined) setImmediate(() => set.has(watcher) && watcher(known));
    return () => {
      set.delete(watcher);
      if (set.size === 0) this.watchers.delete(paneId);
    };
  }

  /** Pane ids with at least one watcher. */
  watched(): string[] {
    return [...this.watchers.keys()];
  }

  /** Tells a pane's watchers its state (the fallback poll uses this too). */
  notify(paneId: string, state: PaneDeath | undefined): void {
    this.watchers.get(paneId)?.forEach((w) => w(state));
  }
}
