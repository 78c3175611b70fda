import type { ClientBlocked, ClientReadiness, TurnDelivery } from '../port';
import { RunnerError } from '../errors/runner-error';
import {
  ENTER_TAKEN_TIMEOUT_MS,
  PASTE_SHOWN_TIMEOUT_MS,
  readScreen,
  showsPaste,
  type ClientScreenRules,
} from '../client/screens/screen-rules';
import type { ScreenPort } from './screen-port';
import { tailScreenLines } from './screen-lines';
import { watchScreen } from './screen-wait';

/** How often the screen is read while the driver waits for a ready screen (ms). */
export const READY_POLL_MS = 200;
/** How often the screen is read while a paste is on its way (ms): the echo and the Enter are on the turn's path. */
export const DELIVERY_POLL_MS = 50;
/**
 * How long the screen must stay unchanged once it shows the paste before Enter is pressed (ms): a long paste is
 * drawn in pieces, and a screen still changing from the paste would read as the Enter taken.
 */
export const PASTE_SETTLE_MS = 150;
/** Quiet time after the client's output before its screen is looked at for a dialog (ms). */
export const DIALOG_CHECK_DELAY_MS = 500;

/** Where a delivery stopped: `not_ready` (a dialog, still busy, or no prompt), `paste_not_shown`, `enter_not_taken`. */
export type DeliveryStage = 'not_ready' | 'paste_not_shown' | 'enter_not_taken';

/**
 * Drives one TUI client by its screen (docs/runners.md "Delivery"): ready means its prompt is up and the screen
 * settled; a turn is pasted only then, its Enter pressed only once the screen shows the paste, and the Enter
 * must change the screen. Between deliveries, a dialog that appears is reported once (onBlocked).
 */
export class ScreenDriver {
  private chain: Promise<unknown> = Promise.resolve();
  private delivering = false;
  private readySeen = false;
  private closed = false;
  /** The dialog last reported (by waitUntilReady or the check), so one showing is reported once. */
  private reported: string | undefined;
  private checkTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(blocked: ClientBlocked) => void>();

  constructor(
    private readonly port: ScreenPort,
    readonly rules: ClientScreenRules,
  ) {}

  /** Waits for a ready screen that stayed unchanged for `rules.settleMs`, a dialog that did, the exit, or the timeout. */
  async waitUntilReady(signal?: AbortSignal, timeoutMs = this.rules.readyTimeoutMs): Promise<ClientReadiness> {
    const started = Date.now();
    const end = await watchScreen(this.port, this.rules, { timeoutMs, pollMs: READY_POLL_MS, ...(signal ? { signal } : {}) }, (s) =>
      s.stableMs >= this.rules.settleMs && (s.verdict.kind === 'ready' || s.verdict.kind === 'dialog') ? s.verdict : undefined,
    );
    switch (end.kind) {
      case 'aborted':
        return { kind: 'aborted' };
      case 'exited':
        return { kind: 'exited', lastLines: tailScreenLines(end.lines) };
      case 'timeout':
        return { kind: 'timeout', waitedMs: Date.now() - started, lastLines: tailScreenLines(end.lines) };
      case 'done':
        if (end.value.kind === 'dialog') {
          this.reported = end.value.name;
          return { kind: 'blocked', dialog: end.value.name, lastLines: tailScreenLines(end.lines) };
        }
        this.readySeen = true;
        this.reported = undefined;
        return { kind: 'ready', waitedMs: Date.now() - started };
    }
  }

  /** Pastes `text` (the turn's delivery text) once the client is ready; one delivery at a time. */
  deliver(turn: TurnDelivery, text: string): Promise<void> {
    const run = this.chain.then(() => this.deliverNow(turn, text));
    this.chain = run.catch(() => undefined); // expected: the chain only orders deliveries; the caller gets the failure
    return run;
  }

  private async deliverNow(turn: TurnDelivery, text: string): Promise<void> {
    this.delivering = true;
    try {
      const ready = await this.waitUntilReady();
      if (ready.kind !== 'ready') throw this.notReady(ready);
      const before = await this.port.capture();
      await this.port.paste(text);
      const echo = await watchScreen(
        this.port,
        this.rules,
        { timeoutMs: this.rules.pasteShownTimeoutMs ?? PASTE_SHOWN_TIMEOUT_MS, pollMs: DELIVERY_POLL_MS },
        (s) => (showsPaste(this.rules, turn.turnId, before, s.lines) ? s.text : s.verdict.kind === 'dialog' ? null : undefined),
      );
      if (echo.kind !== 'done' || echo.value === null) throw this.stuck('paste_not_shown', echo);
      const shown = echo.value;
      await this.port.pressEnter();
      const taken = await watchScreen(
        this.port,
        this.rules,
        { timeoutMs: this.rules.enterTakenTimeoutMs ?? ENTER_TAKEN_TIMEOUT_MS, pollMs: DELIVERY_POLL_MS },
        (s) => (s.text !== shown || s.verdict.kind === 'busy' ? true : undefined),
      );
      if (taken.kind !== 'done') throw this.stuck('enter_not_taken', taken);
    } finally {
      this.delivering = false;
    }
  }

  private notReady(ready: Exclude<ClientReadiness, { kind: 'ready' }>): RunnerError {
    if (ready.kind === 'exited' || ready.kind === 'aborted')
      return new RunnerError('runner_error', 'the client exited before the turn could be pasted');
    const dialog = ready.kind === 'blocked' ? { dialog: ready.dialog } : {};
    const why = ready.kind === 'blocked' ? `shows a dialog (${ready.dialog})` : 'never showed its ready prompt';
    return blockedError(`the client ${why}; nothing was pasted`, 'not_ready', dialog, ready.lastLines);
  }

  private stuck(stage: DeliveryStage, end: { readonly kind: string; readonly lines?: readonly string[] }): RunnerError {
    if (end.kind === 'exited') return new RunnerError('runner_error', 'the client exited while the turn was pasted');
    const verdict = readScreen(this.rules, end.lines ?? []);
    const lines = tailScreenLines(end.lines ?? []);
    const dialog = verdict.kind === 'dialog' ? { dialog: verdict.name } : {};
    const why = stage === 'paste_not_shown' ? 'the pasted turn never showed on its screen' : 'its screen did not change after Enter';
    return blockedError(`the client did not take the turn: ${why}`, stage, dialog, lines);
  }

  /** The client printed something: its screen is looked at for a dialog once it is quiet (DIALOG_CHECK_DELAY_MS). */
  noteOutput(): void {
    if (this.checkTimer !== undefined || this.closed || this.listeners.size === 0) return;
    this.checkTimer = setTimeout(() => {
      this.checkTimer = undefined;
      void this.checkForDialog();
    }, DIALOG_CHECK_DELAY_MS);
    this.checkTimer.unref();
  }

  onBlocked(listener: (blocked: ClientBlocked) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    if (this.checkTimer !== undefined) clearTimeout(this.checkTimer);
    this.checkTimer = undefined;
    this.listeners.clear();
  }

  /** A dialog shown for `settleMs` outside a delivery (and after the client was once ready) is reported once. */
  private async checkForDialog(): Promise<void> {
    if (this.delivering || !this.readySeen || this.port.exited()) return;
    const first = await this.dialogNow();
    if (first === undefined) {
      this.reported = undefined;
      return;
    }
    if (first.name === this.reported) return;
    await new Promise((r) => setTimeout(r, this.rules.settleMs));
    const again = await this.dialogNow();
    if (again === undefined || again.name !== first.name || this.delivering || this.closed || this.reported === again.name) return;
    this.reported = again.name;
    const blocked: ClientBlocked = { dialog: again.name, lastLines: tailScreenLines(again.lines) };
    for (const listener of [...this.listeners]) listener(blocked);
  }

  private async dialogNow(): Promise<{ name: string; lines: readonly string[] } | undefined> {
    // expected: a pane that is closing cannot be read; its exit is reported on its own
    const lines = await this.port.capture().catch(() => undefined);
    if (lines === undefined) return undefined;
    const verdict = readScreen(this.rules, lines);
    return verdict.kind === 'dialog' ? { name: verdict.name, lines } : undefined;
  }
}

/** `client_prompt_blocked` with the stage, the dialog's name (if one showed) and the screen's last lines. */
function blockedError(message: string, stage: DeliveryStage, dialog: { dialog?: string }, lastLines: readonly string[]): RunnerError {
  return new RunnerError('client_prompt_blocked', message, { details: { stage, ...dialog, last_lines: lastLines } });
}
