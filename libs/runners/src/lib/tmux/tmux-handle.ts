import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type {
  ClientBlocked,
  ClientReadiness,
  ExitInfo,
  OutputStream,
  RunnerHandle,
  SessionDescription,
  SessionHealth,
  TurnDelivery,
} from '../port';
import type { ClientScreenRules } from '../client/screens/screen-rules';
import { ScreenDriver } from '../screen/screen-driver';
import { redactScreen } from '../screen/screen-lines';
import { OutputHub } from '../process/output-hub';
import { removeArgvManifest } from '../manifest/argv-manifest';
import { killProcessTree, processIdentity, STOP_GRACE_MS } from '../process/process-tree';
import { removeFileIfPresent } from '../state/state-dir';
import { OutputLineSplitter } from './output-lines';
import type { PaneDeath } from './pane-state';
import type { TmuxServer } from './tmux-server';
import { buildTuiTurnText } from './turn-text';
import { readZombieExit } from './zombie-exit';

export interface TmuxHandleInit {
  readonly server: TmuxServer;
  readonly description: SessionDescription;
  readonly paneId: string;
  readonly panePid: number;
  readonly envFile: string;
  /** The launch's manifest, or the agent's manifest directory when re-attached (all `*.argv` go). */
  readonly manifest: { readonly file: string } | { readonly dir: string };
  /** Inner-runner resources to release at stop (e.g. the tmux+docker container). */
  readonly cleanup?: () => Promise<void>;
  /** Frees the window's place on its tmux server (TmuxServers) once the window is gone. */
  readonly release?: () => void;
  /** The client's screen rules (docs/clients.md "Pane mode"); absent: text and Enter are pasted at once. */
  readonly screen?: ClientScreenRules;
  /** Secret values of the client's environment, replaced in every screen read (screen-lines.ts). */
  readonly secrets?: readonly string[];
}

/** Polls (500 ms apart) to wait for `pane_dead_status` after `pane_dead`, when the process is neither reaped nor a zombie, before reporting an unknown exit. */
const DEAD_STATUS_POLLS = 20;
/** Interval of those polls: deaths arrive as notifications, so the handle re-checks on its own timer. */
const DEAD_STATUS_POLL_MS = 500;

/** One agent pane. Output arrives as `%output`; exit is seen by polling `pane_dead` (never respawned). */
export class TmuxHandle implements RunnerHandle {
  private readonly hub = new OutputHub();
  private statusPolls = 0;
  private readingZombie = false;
  private statusRetry: NodeJS.Timeout | undefined;
  private stopped: Promise<void> | undefined;
  private readonly stopOutput: () => void;
  private readonly stopWatching: () => void;
  private readonly stopLost: () => void;
  /** Why the pane ended, when the runner knows: `tmux_server_exited` (the server died under it). */
  private exitReason: ExitInfo['reason'];
  private readonly splitter = new OutputLineSplitter((line) => this.hub.emitLine('stdout', line));
  /** The pane process's start time when the handle was made, if it was then a live child of the tmux server. */
  private readonly paneStartTicks: number | undefined;
  /** Set for clients with screen rules: readiness, paste-then-Enter, dialogs (screen/screen-driver.ts). */
  private readonly driver: ScreenDriver | undefined;
  readonly waitUntilReady?: (signal: AbortSignal) => Promise<ClientReadiness>;
  readonly onClientBlocked?: (listener: (blocked: ClientBlocked) => void) => () => void;

  constructor(private readonly init: TmuxHandleInit) {
    this.paneStartTicks = paneChildStart(init.panePid, init.server.serverPid);
    if (init.screen !== undefined) {
      const { server, paneId } = init;
      const driver = new ScreenDriver(
        {
          capture: async () => redactScreen(await server.captureVisible(paneId), init.secrets ?? []),
          paste: (text) => server.pasteText(paneId, text),
          pressEnter: () => server.pressEnter(paneId),
          exited: () => this.hub.exited,
        },
        init.screen,
      );
      this.driver = driver;
      this.waitUntilReady = (signal) => driver.waitUntilReady(signal);
      this.onClientBlocked = (listener) => driver.onBlocked(listener);
    }
    this.stopOutput = init.server.control.onPaneOutput(init.paneId, (data) => {
      this.splitter.push(data);
      this.driver?.noteOutput();
    });
    this.stopWatching = init.server.watchPane(init.paneId, (state) => this.onPaneState(state));
    // The tmux server died (kill -9, crash): no pane of it can answer or exit on its own any more. The agent
    // exits with `tmux_server_exited` and what the pane left (cgroup, tmux+docker container, files) is cleaned
    // up now, never left running until a restart (the agents stayed busy forever).
    this.stopLost = init.server.onLost(() => {
      this.exitReason = 'tmux_server_exited';
      this.finish(null, null);
      // best-effort: the stop's own failures are the engine's to report when it stops the agent
      this.stop({ graceMs: 0 }).catch(() => undefined);
    });
  }

  describe(): SessionDescription {
    return this.init.description;
  }

  /**
   * Pastes docs/messaging.md's TUI text through a 0600 buffer file, then presses Enter: with screen rules, once
   * the client is ready and only after its screen shows the paste (`client_prompt_blocked` otherwise).
   */
  async deliver(turn: TurnDelivery): Promise<void> {
    if (this.driver !== undefined) return this.driver.deliver(turn, buildTuiTurnText(turn));
    await this.init.server.paste(this.init.paneId, buildTuiTurnText(turn));
  }

  /** Kills the pane's process tree, then its window; removes the manifest and env file. Idempotent. */
  stop(opts?: { readonly graceMs?: number }): Promise<void> {
    this.stopped ??= this.stopNow(opts?.graceMs ?? STOP_GRACE_MS);
    return this.stopped;
  }

  private async stopNow(graceMs: number): Promise<void> {
    // Asking tmux first (display-message) was one of a stop's two round trips, queued behind every other
    // stop on that server. The pane's process is known without it while it is still the same live child of the tmux
    // server, started at the same tick; only otherwise (it exited, or tmux gave no pid) does tmux describe the pane.
    const verified =
      this.paneStartTicks !== undefined && paneChildStart(this.init.panePid, this.init.server.serverPid) === this.paneStartTicks;
    // expected: a pane tmux cannot describe is not killed by pid (the pid could be reused); kill-window below still closes it
    const state = verified ? undefined : await this.init.server.paneState(this.init.paneId).catch(() => undefined);
    if (verified || (state !== undefined && !state.dead && state.panePid === this.init.panePid)) {
      await killProcessTree(this.init.panePid, graceMs);
    }
    this.driver?.close();
    await this.init.server.killWindow(this.init.paneId);
    this.stopWatching();
    this.stopLost();
    this.stopOutput();
    this.init.server.control.forgetPane(this.init.paneId);
    this.init.release?.();
    await removeFileIfPresent(this.init.envFile);
    await removeManifests(this.init.manifest);
    await this.init.cleanup?.();
    this.finish(state?.dead === true ? state.exitCode : null, state?.dead === true ? state.signal : 'SIGTERM');
  }

  async health(): Promise<SessionHealth> {
    if (this.hub.exited) return 'exited';
    const state = await this.init.server.paneState(this.init.paneId);
    return state !== undefined && !state.dead ? 'running' : 'exited';
  }

  /** The pane's text now (the dashboard's terminal starts from it); trailing blank lines dropped, secrets replaced. */
  async captureScreen(): Promise<readonly string[]> {
    const lines = [...redactScreen(await this.init.server.capturePane(this.init.paneId), this.init.secrets ?? [])];
    while (lines.length > 0 && (lines[lines.length - 1] ?? '').trim() === '') lines.pop();
    return lines;
  }

  onOutput(listener: (stream: OutputStream, line: string) => void): () => void {
    return this.hub.addOutput(listener);
  }

  onExit(listener: (code: number | null, signal: string | null, info?: ExitInfo) => void): () => void {
    return this.hub.addExit((code, signal) =>
      listener(code, signal, this.exitReason === undefined ? undefined : { reason: this.exitReason }),
    );
  }

  private onPaneState(state: PaneDeath | undefined): void {
    if (state !== undefined && !state.dead) return;
    // tmux marks a pane dead when its pty closes, which can precede reaping the child: the
    // status is then still empty. While the child is an unreaped zombie the kernel holds its
    // status (read below); otherwise give tmux a few polls before reporting an unknown exit.
    const statusPending = state !== undefined && state.exitCode === null && state.signal === null;
    if (!statusPending) {
      this.finish(state?.exitCode ?? null, state?.signal ?? null);
      return;
    }
    if (this.readingZombie) return;
    this.readingZombie = true;
    void this.finishFromZombie().finally(() => {
      this.readingZombie = false;
    });
  }

  private async finishFromZombie(): Promise<void> {
    const serverPid = this.init.server.serverPid;
    const zombie = serverPid === undefined ? undefined : await readZombieExit(this.init.panePid, serverPid);
    if (zombie !== undefined && serverPid !== undefined) {
      nudgeReap(serverPid);
      this.finish(zombie.code, zombie.signal);
      return;
    }
    if (this.statusPolls++ >= DEAD_STATUS_POLLS) {
      this.finish(null, null);
      return;
    }
    // a later notification (the status filled in) may come first; otherwise look again
    if (this.statusRetry === undefined && !this.hub.exited) {
      this.statusRetry = setTimeout(() => {
        this.statusRetry = undefined;
        if (!this.hub.exited) void this.finishFromZombie();
      }, DEAD_STATUS_POLL_MS);
      this.statusRetry.unref();
    }
  }

  private finish(code: number | null, signal: string | null): void {
    if (this.statusRetry !== undefined) clearTimeout(this.statusRetry);
    this.statusRetry = undefined;
    if (this.hub.exited) return;
    this.splitter.flush();
    this.stopWatching(); // output stays subscribed until stop (the dead pane may still flush)
    this.hub.emitExit(code, signal);
  }
}

/** The start time of `pid` if it is a live child of the tmux server `serverPid` (unknown server: undefined). */
function paneChildStart(pid: number, serverPid: number | undefined): number | undefined {
  if (serverPid === undefined) return undefined;
  const who = processIdentity(pid);
  return who !== undefined && who.ppid === serverPid ? who.startTicks : undefined;
}

/** SIGCHLD makes the tmux server run its waitpid loop now, so it reaps the pane's process (harmless otherwise). */
function nudgeReap(serverPid: number): void {
  try {
    process.kill(serverPid, 'SIGCHLD');
  } catch {
    // best-effort: the tmux server is gone, nothing left to reap
  }
}

async function removeManifests(manifest: TmuxHandleInit['manifest']): Promise<void> {
  if ('file' in manifest) {
    await removeArgvManifest(manifest.file);
    return;
  }
  let names: string[];
  try {
    names = await fsp.readdir(manifest.dir);
  } catch {
    return; // expected: no manifest directory, nothing to remove
  }
  for (const name of names) {
    if (name.endsWith('.argv')) await removeArgvManifest(path.join(manifest.dir, name));
  }
}
