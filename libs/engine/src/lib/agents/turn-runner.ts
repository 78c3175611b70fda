/**
 * One turn at a time: prepare the turn dir, deliver (inbox file or paste), watch the receipt, apply
 * the receipt outcome, honour `turn_timeout_ms` and route at completion. Every effect goes
 * through the `TurnPort`; how the turn ended is the return value (`TurnEnd`), which the session's state
 * machine turns into the agent's next state. The runner never calls back into the session.
 */
import type { TurnReceipt } from '@genswarms/receipts';
import type { AttentionInfo, TurnFinish, TurnRow } from '../store/store';
import type { TimerHandle } from '../util/clock';
import { contentPreview } from '../util/preview';
import { failureCode } from '../events/failure-report';
import { AGENT_EXITED_ERROR, DELIVERY_FAILED_ERROR, ENGINE_FAILED_ERROR } from './host-receipt';
import { cancelTurnByHost, failTurnByHost, settleFromHostReceipt } from './turn-endings';
import type { TurnPort, TurnSends } from './session-ports';
import type { TurnEnd } from './session-machine';
import { isStorageFullError } from '../store/storage-full';
import { attentionOfDeliveryError } from './client-attention';

const DROPPED: TurnEnd = { kind: 'dropped' };
const FINISHED: TurnEnd = { kind: 'finished' };

/** How a turn is run: `fresh` = delivered now; `startRecorded` = its `turn_started` was written with its dispatch. */
export interface RunOptions {
  readonly fresh: boolean;
  readonly redeliver?: boolean;
  readonly startRecorded?: boolean;
}

interface Current {
  readonly id: string;
  readonly abort: AbortController;
  timer: TimerHandle | null;
  expired: boolean;
  readonly sends: TurnSends;
}

export class TurnRunner {
  private currentTurn: Current | null = null;
  /** A turn handed to the agent whose `delivered` flag a full disk kept from the store: never delivered twice. */
  private unrecordedDelivery: string | null = null;

  constructor(private readonly port: TurnPort) {}

  private get current(): Current | null {
    return this.currentTurn;
  }

  /** The turn now running; what the outbox routes meanwhile counts as its sends. */
  private set current(cur: Current | null) {
    this.currentTurn = cur;
    this.port.trackSends(cur?.sends ?? null);
  }

  /** `turn` with `delivered` as this process knows it (the store may have had no room to record it). */
  withDelivery(turn: TurnRow): TurnRow {
    return !turn.delivered && this.unrecordedDelivery === turn.id ? { ...turn, delivered: true } : turn;
  }

  currentId(): string | null {
    return this.current?.id ?? null;
  }

  private emit(
    type:
      | 'turn_started'
      | 'turn_completed'
      | 'turn_failed'
      | 'turn_timeout'
      | 'receipt_rejected'
      | 'agent_needs_attention'
      | 'auto_deliver_skipped',
    message: string,
    metadata: Record<string, unknown>,
  ): Promise<unknown> {
    return this.port.events.emit({ type, swarm: this.port.swarm, agent: this.port.agent, message, metadata });
  }

  /** Runs the turn to its end; throws when the engine failed it (the session settles it `engine_error`). */
  async run(turn: TurnRow, opts: RunOptions): Promise<TurnEnd> {
    const cur: Current = {
      id: turn.id,
      abort: new AbortController(),
      timer: null,
      expired: turn.timedOut,
      sends: { sentTo: new Set(), broadcast: false },
    };
    this.current = cur;
    if (opts.fresh) {
      if (!turn.delivered && opts.startRecorded !== true)
        await this.emit('turn_started', `Turn ${turn.id} started.`, { turn: turn.id, item_id: turn.itemId, from: turn.from });
      const delivered = await this.deliver(turn, true, cur);
      if (delivered !== null) return delivered;
    } else if (opts.redeliver === true) {
      const delivered = await this.deliver(turn, false, cur);
      if (delivered !== null) return delivered;
    }
    if (this.current !== cur) return DROPPED;
    this.armTimeout(turn, cur);
    let receipt: TurnReceipt;
    try {
      receipt = await this.port.watch(turn.id, cur.abort.signal);
    } catch (e) {
      if (cur.abort.signal.aborted) return DROPPED; // the turn was cancelled or the engine dropped it
      throw e; // a watcher failure fails the turn (the session settles it)
    }
    return receipt.kind === 'pending' ? DROPPED : this.complete(turn, cur, receipt, this.port.nowMs());
  }

  /** Prepares the turn dir and hands the turn over; null when it was handed over, else how the turn ended here. */
  private async deliver(turn: TurnRow, writeFile: boolean, cur: Current): Promise<TurnEnd | null> {
    const prep = await this.port.prepareTurnDir(turn.id).catch(async (e: unknown) => {
      if (isStorageFullError(e)) throw e; // no room on the workspace's disk: retried, not held (the session's storage retry)
      await this.port.report('turn', e, { turn: turn.id });
      return { kind: 'refused' as const, reason: 'receipt_not_regular' as const };
    });
    if (this.current !== cur) return DROPPED;
    if (prep.kind === 'refused') return this.reject(turn, prep.reason, 'directory');
    let flushed: Promise<void> = Promise.resolve();
    if (writeFile && !this.port.isTui()) {
      const w = await this.port.writeInbox(turn).catch(async (e: unknown) => {
        if (isStorageFullError(e)) throw e;
        await this.port.report('turn', e, { turn: turn.id });
        return { ok: false as const, detail: 'write failed' };
      });
      if (this.current !== cur) return DROPPED;
      if (!w.ok) return this.reject(turn, 'inbox_unsafe');
      flushed = w.flushed;
    }
    try {
      await this.port.deliver({ turnId: turn.id, seq: turn.seq, from: turn.from, content: turn.content });
    } catch (e) {
      // a TUI client that would not take the paste (a dialog, no prompt, the Enter not taken) holds the agent
      if (this.current !== cur) return DROPPED;
      return this.finish(turn, DELIVERY_FAILED_ERROR, failureCode(e), attentionOfDeliveryError(e, turn.id));
    }
    if (this.current !== cur) return DROPPED;
    // The inbox file is on disk before the turn is recorded delivered (a crash before that delivers it afresh).
    const flush = await this.inboxFlushed(turn, flushed, cur);
    if (flush !== null) return flush;
    // A full disk cannot record the flag; the turn is watched all the same (a crash before space returns redelivers it).
    await this.port.store.markTurnDelivered(turn.id).then(
      () => {
        this.unrecordedDelivery = null;
      },
      (e: unknown) => {
        if (!isStorageFullError(e)) throw e;
        this.unrecordedDelivery = turn.id;
      },
    );
    return null;
  }

  /** null once the inbox file is on disk; else the turn ended here (the flush failed: rejected inbox_unsafe; or cancelled). */
  private async inboxFlushed(turn: TurnRow, flushed: Promise<void>, cur: Current): Promise<TurnEnd | null> {
    const flush = await flushed.then(
      () => ({ ok: true as const }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (this.current !== cur) return DROPPED;
    if (flush.ok) return null;
    if (isStorageFullError(flush.error)) throw flush.error;
    await this.port.report('turn', flush.error, { turn: turn.id });
    return this.reject(turn, 'inbox_unsafe');
  }

  private armTimeout(turn: TurnRow, cur: Current): void {
    const limit = this.port.turnTimeoutMs();
    if (limit === undefined || cur.expired) return;
    const elapsed = this.port.nowMs() - Date.parse(turn.startedAt);
    cur.timer = this.port.setTimer(Math.max(0, limit - elapsed), () => {
      cur.timer = null;
      void this.expire(turn, cur, limit).catch((e: unknown) => this.port.report('turn_timeout', e, { turn: turn.id }));
    });
  }

  private async expire(turn: TurnRow, cur: Current, limit: number): Promise<void> {
    if (this.current !== cur || !(await this.port.store.markTurnTimedOut(turn.id))) return;
    cur.expired = true;
    await this.emit('turn_timeout', `Turn ${turn.id} exceeded ${limit} ms.`, { turn: turn.id, turn_timeout_ms: limit });
    this.port.push({
      type: 'turn_completed',
      payload: { agent: this.port.agent, turn: turn.id, status: 'timed_out', reply_preview: null },
    });
  }

  /** `receiptAt`: when the receipt was in hand; the turn event carries `receipt_latency_ms` from then to its emission. */
  private async complete(
    turn: TurnRow,
    cur: Current,
    receipt: Exclude<TurnReceipt, { kind: 'pending' }>,
    receiptAt: number,
  ): Promise<TurnEnd> {
    if (this.current !== cur) return DROPPED;
    cur.timer?.cancel();
    if (receipt.kind === 'refused') return this.reject(turn, receipt.reason, receipt.file);
    const status = receipt.status === 'ok' ? 'completed' : 'error';
    const preview = receipt.reply === null ? null : contentPreview(receipt.reply.trim());
    // The turn's event is written in the finish's transaction (one commit); none for a turn that expired.
    const type = status === 'completed' ? 'turn_completed' : 'turn_failed';
    const ended = this.port.events.along((finished: boolean) =>
      !finished || cur.expired
        ? null
        : {
            type,
            swarm: this.port.swarm,
            agent: this.port.agent,
            message: `Turn ${turn.id} ${status === 'completed' ? 'completed' : 'failed'}.`,
            metadata: {
              turn: turn.id,
              ...(receipt.error === undefined ? {} : { error: receipt.error.slice(0, 200) }),
              receipt_latency_ms: Math.max(0, this.port.nowMs() - receiptAt),
            },
          },
    );
    const finish: TurnFinish = {
      status,
      error: receipt.error ?? null,
      replyPreview: preview,
      reply: receipt.reply,
      completedAt: this.port.now(),
    };
    if (!(await this.port.store.finishTurn(turn.id, finish, ended))) return DROPPED;
    this.current = null;
    if (this.port.events.announce(ended) === null) {
      if (this.port.replyTo() !== undefined) {
        await this.emit('auto_deliver_skipped', `Late receipt of turn ${turn.id}: nothing routed.`, {
          turn: turn.id,
          reason: 'turn_expired',
        });
      }
    } else {
      this.port.push({
        type: 'turn_completed',
        payload: {
          agent: this.port.agent,
          turn: turn.id,
          status,
          ...(receipt.error === undefined ? {} : { error: receipt.error }),
          reply_preview: preview,
        },
      });
      await this.port.route(turn.id, receipt.reply ?? '', cur.sends);
    }
    return FINISHED;
  }

  /**
   * The runner could not deliver: the turn fails with `delivery_failed` and the runner's code; with `attention`
   * (client_prompt_blocked) the agent then waits for its operator instead of taking the next item.
   */
  private async finish(turn: TurnRow, error: string, code: string, attention: AttentionInfo | null): Promise<TurnEnd> {
    this.current = null;
    // The inbox file may be written already: the host receipt keeps the next client process off it.
    // Receipt first, store second (host-receipt.ts): a crash in between is settled by recovery.
    await this.port.writeHostReceipt(turn.id, error);
    await this.port.store.finishTurn(turn.id, { status: 'error', error, replyPreview: null, completedAt: this.port.now() });
    await this.emit('turn_failed', `Turn ${turn.id} could not be delivered.`, { turn: turn.id, error, code });
    return { kind: 'undelivered', attention };
  }

  /**
   * The turn threw inside the engine (AgentSession.turnFailed): it stops being watched and ends as
   * `error` with `engine_error` — host receipt first, like every turn the host ends — unless it was
   * already final (the failure came after its store update). The caller makes the agent idle.
   */
  async failInternally(turn: TurnRow): Promise<void> {
    const cur = this.current;
    if (cur?.id === turn.id) this.stopWatching(cur);
    const error = ENGINE_FAILED_ERROR;
    await failTurnByHost(this.port, turn.id, error, `Turn ${turn.id} failed inside the engine.`, { turn: turn.id, error });
  }

  /** Recovery found the host receipt of an open turn: it ends as the host meant (turn-endings.ts). */
  settleFromHostReceipt(turn: TurnRow, error: string): Promise<boolean> {
    return settleFromHostReceipt(this.port, turn.id, error);
  }

  /**
   * The turn is rejected with `receipt_rejected`; nothing routed. The agent then needs attention (the session's
   * machine: state, agent_needs_attention, push).
   */
  private async reject(turn: TurnRow, reason: string, file?: string): Promise<TurnEnd> {
    this.current = null;
    await this.port.store.finishTurn(turn.id, { status: 'rejected', reason, completedAt: this.port.now() });
    await this.emit('receipt_rejected', `Receipt of turn ${turn.id} rejected (${reason}).`, {
      turn: turn.id,
      reason,
      ...(file === undefined ? {} : { file }),
    });
    return { kind: 'rejected', reason, turn: turn.id };
  }

  /**
   * Stop/restart/remove mid-turn (also a `timed_out` one): the turn becomes `cancelled`. Returns its id
   * when this call made it final — the caller then settles it once the process is gone
   * (`AgentSession.settleCancelled`) — else null.
   */
  async cancel(): Promise<string | null> {
    const cur = this.current;
    if (cur === null) return null;
    this.stopWatching(cur);
    return (await cancelTurnByHost(this.port, cur.id)) ? cur.id : null;
  }

  /**
   * The agent's client exited (its process, its tmux server or its container engine went) with this turn open:
   * the watcher gets `graceMs` to find a receipt written just before the exit; after that the turn ends
   * `error` `agent_exited` (host receipt first, once, with `turn_failed` carrying the exit's `code`) instead of staying `running`
   * for a dead agent until a restart (a turn is failed or resumed, never hung). The agent stays failed.
   */
  async failOnExit(code: string, graceMs: number): Promise<void> {
    const cur = this.current;
    if (cur === null) return;
    await new Promise((r) => setTimeout(r, graceMs));
    if (this.current !== cur) return; // the receipt completed it meanwhile, or a stop/restart cancelled it
    this.stopWatching(cur);
    const error = AGENT_EXITED_ERROR;
    await failTurnByHost(this.port, cur.id, error, `Turn ${cur.id} failed: the agent exited (${code}).`, { turn: cur.id, error, code });
  }

  /** The turn is no longer watched: its timer and watcher end, and it is no longer current. */
  private stopWatching(cur: Current): void {
    this.current = null;
    cur.timer?.cancel();
    cur.abort.abort();
  }

  abandon(): void {
    const cur = this.current;
    this.current = null;
    cur?.timer?.cancel();
    cur?.abort.abort();
  }
}
