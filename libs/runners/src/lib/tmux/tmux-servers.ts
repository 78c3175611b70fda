import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { createConnection } from 'node:net';
import * as path from 'node:path';
import { TMUX_SERVERS_MAX, tmuxSocketIndexOf, tmuxSocketPath, type TmuxServer } from './tmux-server';

/**
 * Panes one tmux server holds before the next server is opened. tmux visits every pane on each
 * pass of its event loop, so its CPU per command grows with the panes it holds (session 5: 1.2 ms per new
 * window for the first hundred → 10.1 ms for the last at 1,000); several servers also share the cores.
 */
export const TMUX_PANES_PER_SERVER = 200;

/** Opens server `index` (a fresh control client; the tmux server is started or joined on its socket). */
export type TmuxServerOpener = (index: number) => Promise<TmuxServer>;

/** Where an agent's window lives: its server and that server's index. */
export interface TmuxPlacement {
  readonly server: TmuxServer;
  readonly index: number;
}

/** How long a look at an existing shard socket waits for the connection (ms). */
const PROBE_TIMEOUT_MS = 1000;

/**
 * docs/runners.md "tmux servers": the tmux runner's servers. An agent's window goes to the first server with
 * fewer than `panesPerServer` placed windows (server 0 first, so a small setup has exactly one server on
 * `tmux.sock`), except when a window of that agent already exists on an open server: it stays there (the
 * creation then refuses a live one and replaces a dead one, as with one server). A placement is kept until
 * the agent's handle stops. At the first use, servers a previous run left on `tmux-<k>.sock` are joined (so a
 * leftover window is found before a new one is placed elsewhere); a socket nobody listens on is removed.
 */
export class TmuxServers {
  private readonly servers = new Map<number, Promise<TmuxServer>>();
  /** `<swarm>\0<agent>` → server index, while the agent's handle lives. */
  private readonly placed = new Map<string, number>();
  private readonly counts = new Map<number, number>();
  private joined: Promise<void> | undefined;
  /** Servers that were running before our first use: the only ones that can hold windows we did not place. */
  private leftovers: readonly number[] = [];

  constructor(
    private readonly home: string,
    private readonly opener: TmuxServerOpener,
    private readonly panesPerServer = TMUX_PANES_PER_SERVER,
  ) {}

  /** Server `index`, opened on first use; a failed or closed one is reopened (one attempt per call). */
  serverAt(index: number): Promise<TmuxServer> {
    tmuxSocketPath(this.home, index); // refuses an index out of range
    const current = this.servers.get(index);
    const open = (): Promise<TmuxServer> => this.opener(index);
    const next = current === undefined ? open() : current.then((s) => (s.control.isClosed ? open() : s), open);
    this.servers.set(index, next);
    return next;
  }

  /** The servers opened so far that are still connected (failed opens are skipped). */
  async openServers(): Promise<TmuxServer[]> {
    const all = await Promise.all(
      [...this.servers.values()].map((p) => p.catch(() => undefined)), // expected: a failed open holds nothing
    );
    return all.filter((s): s is TmuxServer => s !== undefined && !s.control.isClosed);
  }

  /** Chooses (and reserves) the server for a new window of `swarm`/`agent`. */
  async place(swarm: string, agent: string): Promise<TmuxPlacement> {
    await this.joinLeftovers();
    const key = placementKey(swarm, agent);
    const kept = this.placed.get(key);
    if (kept !== undefined) return { server: await this.serverAt(kept), index: kept };
    const existing = await this.findWindow(swarm, agent);
    // no await from here to the reservation: concurrent placements count each other
    const again = this.placed.get(key);
    const index = again ?? existing?.index ?? this.firstWithRoom();
    if (again === undefined) this.reserve(key, index);
    return { server: existing?.index === index ? existing.server : await this.serverAt(index), index };
  }

  /**
   * The server of an agent's window after a restart: `recorded` (the index in its session description) when
   * it is a valid one, else a look through every open server (a description written before servers were
   * numbered, or a window that was never recorded). The placement is reserved when a server is returned.
   */
  async locate(swarm: string, agent: string, recorded: unknown): Promise<TmuxPlacement | undefined> {
    await this.joinLeftovers();
    const key = placementKey(swarm, agent);
    if (typeof recorded === 'number' && Number.isSafeInteger(recorded) && recorded >= 0 && recorded < TMUX_SERVERS_MAX) {
      const server = await this.serverAt(recorded);
      if (!this.placed.has(key)) this.reserve(key, recorded);
      return { server, index: recorded };
    }
    const found = await this.findWindow(swarm, agent);
    if (found === undefined) return undefined;
    if (!this.placed.has(key)) this.reserve(key, found.index);
    return found;
  }

  /** The agent's handle stopped: its window is gone and its place is free. */
  release(swarm: string, agent: string): void {
    const key = placementKey(swarm, agent);
    const index = this.placed.get(key);
    if (index === undefined) return;
    this.placed.delete(key);
    this.counts.set(index, Math.max(0, (this.counts.get(index) ?? 1) - 1));
  }

  /** Placed windows per server index (for tests and diagnostics). */
  placements(): ReadonlyMap<number, number> {
    return new Map([...this.counts].filter(([, n]) => n > 0));
  }

  /** Forgets every server and placement (the runner closed them). */
  clear(): void {
    this.leftovers = [];
    this.servers.clear();
    this.placed.clear();
    this.counts.clear();
    this.joined = undefined;
  }

  private reserve(key: string, index: number): void {
    this.placed.set(key, index);
    this.counts.set(index, (this.counts.get(index) ?? 0) + 1);
  }

  private firstWithRoom(): number {
    for (let i = 0; i < TMUX_SERVERS_MAX; i += 1) if ((this.counts.get(i) ?? 0) < this.panesPerServer) return i;
    // every server is full: the least loaded one takes it (more panes per server, never a refused start)
    let best = 0;
    for (let i = 1; i < TMUX_SERVERS_MAX; i += 1) if ((this.counts.get(i) ?? 0) < (this.counts.get(best) ?? 0)) best = i;
    return best;
  }

  /**
   * A window `=<swarm>:=<agent>` on a server that ran before us (one targeted query per such server, all at
   * once). Windows this runner created are in `placed` until their handle stops; a fresh start asks nobody.
   */
  private async findWindow(swarm: string, agent: string): Promise<TmuxPlacement | undefined> {
    const indexes = this.leftovers;
    const looks = await Promise.all(
      indexes.map(async (index) => {
        const server = await this.serverAt(index).catch(() => undefined); // expected: a server that cannot open holds no window we can reach
        // expected: a server whose client just closed answers nothing; its windows are looked for at its next open
        const pane = server === undefined ? undefined : await server.findPane(swarm, agent).catch(() => undefined);
        return pane === undefined || server === undefined ? undefined : { server, index };
      }),
    );
    return looks.find((l) => l !== undefined);
  }

  /** Once: every `tmux.sock` / `tmux-<k>.sock` a live tmux server listens on is joined (stale sockets of k ≥ 1 are removed). */
  private joinLeftovers(): Promise<void> {
    this.joined ??= (async () => {
      const indexes = await liveSockets(path.dirname(tmuxSocketPath(this.home)));
      this.leftovers = indexes;
      await Promise.all(indexes.map((i) => this.serverAt(i).catch(() => undefined))); // expected: a failed open is retried at its next use
    })();
    return this.joined;
  }
}

function placementKey(swarm: string, agent: string): string {
  return `${swarm}\0${agent}`;
}

/**
 * Indexes whose socket in `dir` accepts a connection. A `tmux-<k>.sock` that refuses one is unlinked (a stale
 * socket of a server that died); `tmux.sock` is left to tmux, which replaces a stale one when server 0 starts.
 */
async function liveSockets(dir: string): Promise<number[]> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // expected: no tmux directory yet, so no server either
  }
  const found: number[] = [];
  for (const name of names) {
    const index = tmuxSocketIndexOf(name);
    if (index === undefined) continue;
    const file = path.join(dir, name);
    try {
      if (!lstatSync(file).isSocket()) continue;
    } catch {
      continue; // expected: removed while we looked
    }
    if (await socketListens(file)) found.push(index);
    else if (index > 0) {
      try {
        unlinkSync(file);
      } catch {
        // expected: removed or replaced meanwhile; the next open uses whatever is there
      }
    }
  }
  return found.sort((a, b) => a - b);
}

function socketListens(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ path: file });
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(true), PROBE_TIMEOUT_MS); // no answer yet: a busy server, not a stale file
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
