import { closeSync } from 'node:fs';
import * as path from 'node:path';
import { openNoUtmpLibrary } from '@genswarms/procctl';
import { RunnerError } from '../errors/runner-error';
import { ensurePrivateDir, ownUid } from '../state/state-dir';
import { initialArgv, parsePaneRef, tmuxSocketPath, waitServerGone, type PaneRef } from './tmux-server-setup';
import { pasteIntoPane, pressEnterInPane } from './tmux-paste';
import { TmuxControlClient } from './control-client';
import { PANE_FORMAT, parsePaneLine, type PaneState } from './pane-state';
import { DEAD_FORMAT, DEAD_SUBSCRIPTION, PaneWatchers, type PaneWatcher } from './pane-watch';
import {
  CONTROL_SESSION,
  tmuxConst,
  tmuxConsts,
  tmuxFormat,
  tmuxName,
  tmuxPane,
  tmuxPaneSubscription,
  tmuxPath,
  tmuxSessionTarget,
  tmuxWindowTarget,
  type TmuxWord,
} from './tmux-words';

/**
 * Fallback only (a tmux without `refresh-client -B`): how often dead panes are looked for, one
 * `list-panes -a` for all watched panes. Normally deaths arrive as control-mode notifications.
 */
export const PANE_POLL_INTERVAL_MS = 500;

export { TMUX_SERVERS_MAX, tmuxSocketIndexOf, tmuxSocketPath, type PaneRef } from './tmux-server-setup';

export interface TmuxServerOptions {
  /** Real path of GENSWARMS_HOME. */
  readonly home: string;
  /** Absolute path of the tmux binary. */
  readonly tmux: string;
  readonly uid?: number;
  readonly commandTimeoutMs?: number;
  /** Which of the runner's tmux servers (docs/runners.md "tmux servers"): 0 = `tmux.sock`, k = `tmux-<k>.sock`. */
  readonly index?: number;
}

/**
 * One tmux server on `$home/tmux/tmux.sock` or `tmux-<k>.sock` (directory 0700), driven through ONE
 * control-mode client (a runner holds several: TmuxServers). Sessions are swarms, windows are agents; every agent window is also linked
 * into the hidden control session so its output reaches the control client as `%output`.
 */
export class TmuxServer {
  private readonly panes = new PaneWatchers();
  /** True once the dead-pane subscription is set; otherwise watched panes are polled. */
  private subscribed = false;
  private poller: NodeJS.Timeout | undefined;
  private polling = false;
  /** Per window (`<swarm>\0<agent>`): the last creation queued for it (check-then-create never races itself). */
  private readonly createChains = new Map<string, Promise<unknown>>();
  /** Per swarm: the `new-session` in flight; other creations of that swarm wait for it, then add windows. */
  private readonly sessionCreations = new Map<string, Promise<unknown>>();
  /** Per swarm: `new-session` commands sent so far (a `has-session` answer sent before the last one is stale). */
  private readonly sessionsCreated = new Map<string, number>();
  /** Set by close()/kill(): the control client's end is ours, not a lost server. */
  private leaving = false;

  private constructor(
    readonly home: string,
    readonly tmux: string,
    readonly socketPath: string,
    readonly buffersDir: string,
    readonly control: TmuxControlClient,
  ) {
    control.onNotification((name, args) => this.panes.onNotification(name, args));
  }

  /** The tmux server's pid (the parent of every pane process), if tmux reported it. */
  get serverPid(): number | undefined {
    return this.control.serverPid;
  }

  /** Creates the private directories and starts (or joins) the server with one control client. */
  static async open(opts: TmuxServerOptions): Promise<TmuxServer> {
    if (!path.isAbsolute(opts.tmux)) throw new RunnerError('binary_missing', 'tmux must be an absolute path');
    const uid = opts.uid ?? ownUid();
    const dir = path.join(opts.home, 'tmux');
    const buffersDir = path.join(dir, 'buffers');
    await ensurePrivateDir(dir, uid);
    await ensurePrivateDir(buffersDir, uid);
    const dockerConfigDir = path.join(dir, 'docker-config');
    await ensurePrivateDir(dockerConfigDir, uid);
    const socketPath = tmuxSocketPath(opts.home, opts.index ?? 0);
    tmuxPath(socketPath); // refuses a home tmux cannot quote
    // Tmux records every pane it creates or destroys in utmp through libutempter, which forks the server and
    // execs a setgid helper each time: most of the CPU of starting and stopping 1,000 panes. Agent panes are not
    // login sessions; the shim (its calls doing nothing) is preloaded into a server this client starts, when usable:
    // by the descriptor that was checked, which the client (and the server it forks) inherit.
    const noUtmp = openNoUtmpLibrary();
    let control: TmuxControlClient;
    try {
      control = await TmuxControlClient.start({
        tmux: opts.tmux,
        socket: socketPath,
        initial: initialArgv(dockerConfigDir),
        ...(noUtmp.kind === 'ok' ? { preloadFd: noUtmp.fd } : {}),
        ...(opts.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: opts.commandTimeoutMs }),
      });
    } finally {
      if (noUtmp.kind === 'ok') closeSync(noUtmp.fd); // the client holds its own copy from the spawn on
    }
    const server = new TmuxServer(opts.home, opts.tmux, socketPath, buffersDir, control);
    await server.subscribeDeaths();
    return server;
  }

  /** Pane deaths as `%subscription-changed` (tmux ≥ 3.2); an older tmux refuses it and panes are polled. */
  private async subscribeDeaths(): Promise<void> {
    try {
      await this.command([...tmuxConsts('refresh-client', '-B'), tmuxPaneSubscription(DEAD_SUBSCRIPTION, DEAD_FORMAT)]);
      this.subscribed = true;
    } catch {
      // expected: no control-mode subscriptions in this tmux; watchPane falls back to polling list-panes
      this.subscribed = false;
    }
  }

  /** Sends one command through the control client. */
  command(words: readonly TmuxWord[]): Promise<readonly string[]> {
    return this.control.command(words);
  }

  /** One round trip through the control client; resolves with the tmux server's pid. */
  async ping(): Promise<number> {
    const lines = await this.command([...tmuxConsts('display-message', '-p'), tmuxFormat('#{pid}')]);
    return Number(lines[0]);
  }

  /** Every pane of the server (agent panes and the control placeholder). */
  async listPanes(): Promise<readonly PaneState[]> {
    const lines = await this.command([...tmuxConsts('list-panes', '-a', '-F'), tmuxFormat(PANE_FORMAT)]);
    return lines.map(parsePaneLine).filter((p): p is PaneState => p !== undefined);
  }

  /** The pane of window `=<swarm>:=<agent>`, if it exists (one targeted query, not a listing). */
  async findPane(swarm: string, agent: string): Promise<PaneState | undefined> {
    const pane = await this.describe(tmuxWindowTarget(swarm, agent));
    return pane !== undefined && pane.session === swarm && pane.window === agent ? pane : undefined;
  }

  /**
   * `display-message -p -t <target> PANE_FORMAT`. A target tmux cannot find answers `%error`: undefined.
   * A closed control client rethrows. (A reply timeout also reads as absent: tmux did not answer for
   * TMUX_COMMAND_TIMEOUT_MS, and callers then only skip what needs the pane's pid.)
   */
  private async describe(target: TmuxWord): Promise<PaneState | undefined> {
    try {
      const lines = await this.command([...tmuxConsts('display-message', '-p', '-t'), target, tmuxFormat(PANE_FORMAT)]);
      const pane = parsePaneLine(lines[0] ?? '');
      if (pane !== undefined) this.panes.remember(pane.paneId, pane.windowId);
      return pane;
    } catch (err) {
      if (this.control.isClosed) throw err;
      return undefined; // expected: tmux answered %error, no such pane or window
    }
  }

  /** Whether session `=<swarm>` exists. */
  private async hasSession(swarm: string): Promise<boolean> {
    try {
      await this.command([...tmuxConsts('has-session', '-t'), tmuxSessionTarget(swarm)]);
      return true;
    } catch (err) {
      if (this.control.isClosed) throw err;
      return false; // expected: tmux answered %error, no such session
    }
  }

  /**
   * Creates window `=<swarm>:=<agent>` running `argv` (tmux execs multi-word commands directly, no
   * shell), then links it into the control session. Serialised per window, so two starts of one agent
   * cannot race; creations of different agents overlap (see createWindowNow).
   */
  createWindow(swarm: string, agent: string, cwd: string, argv: readonly TmuxWord[]): Promise<PaneRef> {
    const key = `${swarm}\0${agent}`;
    const run = (this.createChains.get(key) ?? Promise.resolve()).then(() => this.createWindowNow(swarm, agent, cwd, argv));
    const tail = run.catch(() => undefined); // expected: the chain only orders creations; the caller of run gets the failure
    this.createChains.set(key, tail);
    void tail.then(() => {
      if (this.createChains.get(key) === tail) this.createChains.delete(key);
    });
    return run;
  }

  /**
   * Tmux walks every pane on each pass of its event loop, so a launch costs O(N) of tmux CPU per
   * round trip. The two queries go out together, and creations of several agents share the server's
   * passes instead of queueing one after another (a full `list-panes -a` per creation was removed earlier).
   */
  private async createWindowNow(swarm: string, agent: string, cwd: string, argv: readonly TmuxWord[]): Promise<PaneRef> {
    let creationsSeen = this.sessionsCreated.get(swarm) ?? 0;
    const [existing, sessionFound] = await Promise.all([this.findPane(swarm, agent), this.hasSession(swarm)]);
    if (existing !== undefined && !existing.dead) {
      throw new RunnerError('start_failed', `tmux window ${swarm}:${agent} is already running; stop it first`, { agent });
    }
    if (existing !== undefined) await this.command([...tmuxConsts('kill-window', '-t'), tmuxPane(existing.paneId)]);
    // a killed dead window may have been its session's last
    let hasSession = existing === undefined ? sessionFound : await this.hasSession(swarm);
    // another creation of this swarm sent a new-session since we asked: wait for it, ask again, then add a window
    while (!hasSession && (this.sessionsCreated.get(swarm) ?? 0) !== creationsSeen) {
      creationsSeen = this.sessionsCreated.get(swarm) ?? 0;
      await this.sessionCreations.get(swarm);
      hasSession = await this.hasSession(swarm);
    }
    // no await from the last check to trackSessionCreation: a creation checking later sees this new-session
    const common = [...tmuxConsts('-d', '-P', '-F'), tmuxFormat('#{window_id} #{pane_id} #{pane_pid}')];
    const where = [tmuxConst('-n'), tmuxName(agent), tmuxConst('-c'), tmuxPath(cwd, { formatExpanded: true })];
    const create = hasSession
      ? [tmuxConst('new-window'), ...common, tmuxConst('-t'), tmuxSessionTarget(swarm), ...where, tmuxConst('--'), ...argv]
      : [tmuxConst('new-session'), ...common, tmuxConst('-s'), tmuxName(swarm), ...where, tmuxConst('--'), ...argv];
    // Pipelined: the link is processed before the client can print much, so no output is lost.
    const link = [
      ...tmuxConsts('link-window', '-d', '-s'),
      tmuxWindowTarget(swarm, agent),
      tmuxConst('-t'),
      tmuxSessionTarget(CONTROL_SESSION),
    ];
    const creating = this.command(create);
    if (!hasSession) this.trackSessionCreation(swarm, creating);
    const [created, linked] = await Promise.allSettled([creating, this.command(link)]);
    if (created.status === 'rejected')
      throw new RunnerError('start_failed', `tmux could not create ${swarm}:${agent}`, { agent, cause: created.reason });
    const ref = parsePaneRef(created.value[0]);
    if (ref !== undefined) this.panes.remember(ref.paneId, ref.windowId);
    if (linked.status === 'rejected' || ref === undefined) {
      await this.killWindow(ref?.paneId);
      throw new RunnerError('start_failed', `tmux could not link ${swarm}:${agent}`, { agent });
    }
    return ref;
  }

  /** Records a `new-session` in flight for `swarm` until it settles (its outcome is its caller's). */
  private trackSessionCreation(swarm: string, creating: Promise<unknown>): void {
    const settled = creating.then(
      () => undefined,
      () => undefined, // expected: the creator reports its own failure; waiters just look for the session again
    );
    this.sessionCreations.set(swarm, settled);
    this.sessionsCreated.set(swarm, (this.sessionsCreated.get(swarm) ?? 0) + 1);
    void settled.then(() => {
      if (this.sessionCreations.get(swarm) === settled) this.sessionCreations.delete(swarm);
    });
  }

  /** Kills the window holding `paneId` (from every session it is linked into); absent is fine. */
  async killWindow(paneId: string | undefined): Promise<void> {
    if (paneId === undefined) return;
    try {
      await this.command([...tmuxConsts('kill-window', '-t'), tmuxPane(paneId)]);
    } catch {
      // expected: already gone, the pane exited and its window was removed, or an operator killed it
    }
  }

  /** Links an existing agent window into the control session again (after a server/orchestrator restart). */
  async ensureLinked(swarm: string, agent: string): Promise<void> {
    const lines = await this.command([
      ...tmuxConsts('list-windows', '-t'),
      tmuxSessionTarget(CONTROL_SESSION),
      tmuxConst('-F'),
      tmuxFormat('#{window_id}'),
    ]);
    const pane = await this.findPane(swarm, agent);
    if (pane === undefined || lines.includes(pane.windowId)) return;
    await this.command([
      ...tmuxConsts('link-window', '-d', '-s'),
      tmuxWindowTarget(swarm, agent),
      tmuxConst('-t'),
      tmuxSessionTarget(CONTROL_SESSION),
    ]);
  }

  /**
   * Pastes `text` (tmux-paste.ts), then presses Enter at once: clients without screen rules. A client with
   * screen rules gets `pasteText`, then Enter only once its screen shows the text (screen/screen-driver.ts).
   */
  async paste(paneId: string, text: string): Promise<void> {
    await pasteIntoPane(this, paneId, text);
    await pressEnterInPane(this, paneId);
  }

  /** Pastes `text` without Enter. */
  pasteText(paneId: string, text: string): Promise<void> {
    return pasteIntoPane(this, paneId, text);
  }

  /** Presses Enter in the pane. */
  pressEnter(paneId: string): Promise<void> {
    return pressEnterInPane(this, paneId);
  }

  /** The visible screen only (`capture-pane -p -J`: wrapped lines joined, no escapes), what screen rules read. */
  async captureVisible(paneId: string): Promise<readonly string[]> {
    return this.command([...tmuxConsts('capture-pane', '-p', '-J', '-t'), tmuxPane(paneId)]);
  }

  /** The pane's scrollback and screen as plain text (`capture-pane -p -J -S -`: joined wrapped lines, no escapes). */
  async capturePane(paneId: string): Promise<readonly string[]> {
    return this.command([...tmuxConsts('capture-pane', '-p', '-J', '-S', '-', '-t'), tmuxPane(paneId)]);
  }

  /** Current state of one pane, or undefined when it no longer exists (one targeted query). */
  async paneState(paneId: string): Promise<PaneState | undefined> {
    const pane = await this.describe(tmuxPane(paneId));
    return pane?.paneId === paneId ? pane : undefined;
  }

  /**
   * Calls `watcher` when the pane dies (with its exit) or is gone (undefined), until unsubscribed; from
   * control-mode notifications, or (older tmux) from a poll that also reports live states.
   */
  watchPane(paneId: string, watcher: PaneWatcher): () => void {
    const unwatch = this.panes.watch(paneId, watcher);
    if (!this.subscribed) this.startPolling();
    return () => {
      unwatch();
      if (this.panes.watched().length === 0) this.stopPolling();
    };
  }

  private startPolling(): void {
    if (this.poller !== undefined) return;
    this.poller = setInterval(() => void this.pollOnce(), PANE_POLL_INTERVAL_MS);
    this.poller.unref();
  }

  private stopPolling(): void {
    if (this.poller !== undefined) clearInterval(this.poller);
    this.poller = undefined;
  }

  private async pollOnce(): Promise<void> {
    if (this.polling || this.control.isClosed) return;
    this.polling = true;
    try {
      const panes = new Map((await this.listPanes()).map((p) => [p.paneId, p]));
      for (const paneId of this.panes.watched()) this.panes.notify(paneId, panes.get(paneId));
    } catch {
      // expected: the control client is gone or tmux is busy; the next tick retries; close() stops polling
    } finally {
      this.polling = false;
    }
  }

  /**
   * True while any session other than the hidden control session exists (a session lives as long as it
   * holds a window: an agent's pane, live or dead).
   * A failed listing answers true: the caller then keeps the server rather than kill agents it cannot see.
   */
  async hasAgentWindows(): Promise<boolean> {
    try {
      const sessions = await this.command([...tmuxConsts('list-sessions', '-F'), tmuxFormat('#{session_name}')]);
      return sessions.some((name) => name !== CONTROL_SESSION);
    } catch {
      // expected: the control client died or tmux did not answer; fail towards keeping the agents
      return true;
    }
  }

  /**
   * Calls `listener` once if the control client ends without close()/kill() (the tmux server was killed or
   * crashed): every pane of this server is then lost to us. Returns an unsubscribe function.
   */
  onLost(listener: (reason: string) => void): () => void {
    return this.control.onClose((reason) => {
      if (!this.leaving) listener(reason);
    });
  }

  /** Stops polling and detaches the control client; the tmux server and its panes keep running. */
  async close(): Promise<void> {
    this.leaving = true;
    this.stopPolling();
    await this.control.close();
  }

  /**
   * Kills the whole tmux server (tests, or a full shutdown of every swarm) and returns once its process is
   * gone: a dying server still accepts clients, so a server opened at once on the same socket joined it and
   * failed with `start_failed`. Still there after the wait: SIGKILL.
   */
  async kill(): Promise<void> {
    this.leaving = true;
    this.stopPolling();
    const pid = this.serverPid;
    // best-effort: the server may be gone already; the control client is closed next either way
    await this.command(tmuxConsts('kill-server')).catch(() => undefined);
    await this.control.close();
    if (pid !== undefined) await waitServerGone(pid);
  }
}
