/**
 * One turn at a time: prepare the turn dir, deliver (inbox file or paste), watch the receipt, apply
 * the receipt outcome, honour `turn_timeout_ms` and route at completion.
 */
import { prepareTurnDir, watchTurn, type TurnReceipt } from '@genswarms/receipts';
import type { AttentionInfo, TurnFinish, TurnRow } from '../store/store';
import type { TimerHandle } from '../util/clock';
import { contentPreview } from '../util/preview';
import { failureCode } from '../events/failure-report';
import { AGENT_EXITED_ERROR, DELIVERY_FAILED_ERROR, ENGINE_FAILED_ERROR, TURN_CANCELLED_ERROR, writeHostReceipt } from './host-receipt';
import { writeInboxFile } from './inbox-file';
import { clientTurnsDir } from './launch-spec';
import type { TurnHost } from './session-ports';
import { isStorageFullError } from '../store/storage-full';
import { attentionOfDeliveryError, holdForAttention } from './client-attention';
import { turnTimeoutOf } from './turn-timeout';

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
  readonly sentTo: Set<string>;
  broadcast: boolean;
}

export class TurnRunner {
  private current: Current | null = null;
  /** A turn handed to the agent whose `delivered` flag a full disk kept from the store: never delivered twice. */
  private unrecordedDelivery: string | null = null;

  constructor(private readonly host: TurnHost) {}

  /** `turn` with `delivered` as this process knows it (the store may have had no room to record it). */
  withDelivery(turn: TurnRow): TurnRow {
    return !turn.delivered && this.unrecordedDelivery === turn.id ? { ...turn, delivered: true } : turn;
  }

  currentId(): string | null {
    return this.current?.id ?? null;
  }

  noteSend(to: string): void {
    this.current?.sentTo.add(to);
  }

  noteBroadcast(): void {
    if (this.current !== null) this.current.broadcast = true;
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
    return this.host.events.emit({ type, swarm: this.host.swarm, agent: this.host.name, message, metadata });
  }

  async run(turn: TurnRow, opts: RunOptions): Promise<void> {
    const cur: Current = {
      id: turn.id,
      abort: new AbortController(),
      timer: null,
      expired: turn.timedOut,
      sentTo: new Set(),
      broadcast: false,
    };
    this.current = cur;
    if (opts.fresh) {
      if (!turn.delivered && opts.startRecorded !== true)
        await this.emit('turn_started', `Turn ${turn.id} started.`, { turn: turn.id, item_id: turn.itemId, from: turn.from });
      if (!(await this.deliver(turn, true, cur))) return;
    } else if (opts.redeliver === true && !(await this.deliver(turn, false, cur))) {
      return;
    }
    if (this.current !== cur) return;
    this.armTimeout(turn, cur);
    let receipt: TurnReceipt;
    try {
      // A remote client (ssh) writes its receipt on its own host: the runner watches it under the same rules.
      const handle = this.host.handle;
      receipt =
        handle?.watchReceipt !== undefined
          ? await handle.watchReceipt(turn.id, { signal: cur.abort.signal })
          : await watchTurn(this.host.workspace, turn.id, {
              signal: cur.abort.signal,
              requireTurnDir: true, // deliver() created it; gone now = the agent removed it (receipt_replaced)
              ...(this.host.receiptPollMs === undefined ? {} : { pollMs: this.host.receiptPollMs }),
            });
    } catch (e) {
      if (cur.abort.signal.aborted) return; // the turn was cancelled or the engine dropped it
      throw e; // a watcher failure fails the turn (AgentSession.turnFailed)
    }
    if (receipt.kind !== 'pending') await this.complete(turn, cur, receipt, this.host.clock.now().getTime());
  }

  /** Prepares the turn dir and hands the turn over; false when the turn ended here. */
  private async deliver(turn: TurnRow, writeFile: boolean, cur: Current): Promise<boolean> {
    const prep = await prepareTurnDir(this.host.workspace, turn.id).catch(async (e: unknown) => {
      if (isStorageFullError(e)) throw e; // no room on the workspace's disk: retried, not held (AgentSession.turnFailed)
      await this.host.report('turn', e, { turn: turn.id });
      return { kind: 'refused' as const, reason: 'receipt_not_regular' as const };
    });
    if (this.current !== cur) return false;
    if (prep.kind === 'refused') {
      await this.reject(turn, prep.reason, 'directory');
      return false;
    }
    let flushed: Promise<void> = Promise.resolve();
    if (writeFile && !this.host.isTui) {
      const w = await writeInboxFile(this.host.workspace, turn, this.host.now()).catch(async (e: unknown) => {
        if (isStorageFullError(e)) throw e;
        await this.host.report('turn', e, { turn: turn.id });
        return { ok: false as const, detail: 'write failed' };
      });
      if (this.current !== cur) return false;
      if (!w.ok) {
        await this.reject(turn, 'inbox_unsafe');
        return false;
      }
      flushed = w.flushed;
    }
    try {
      await this.host.handle?.deliver({
        turnId: turn.id,
        seq: turn.seq,
        from: turn.from,
        content: turn.content,
        clientTurnsDir: clientTurnsDir(this.host.spec),
      });
    } catch (e) {
      // a TUI client that would not take the paste (a dialog, no prompt, the Enter not taken) holds the agent
      if (this.current === cur) await this.finish(turn, DELIVERY_FAILED_ERROR, failureCode(e), attentionOfDeliveryError(e, turn.id));
      return false;
    }
    if (this.current !== cur) return false;
    // The inbox file is on disk before the turn is recorded delivered (a crash before that delivers it afresh).
    if (!(await this.inboxFlushed(turn, flushed, cur))) return false;
    // A full disk cannot record the flag; the turn is watched all the same (a crash before space returns redelivers it).
    await this.host.store.markTurnDelivered(turn.id).then(
      () => {
        this.unrecordedDelivery = null;
      },
      (e: unknown) => {
        if (!isStorageFullError(e)) throw e;
        this.unrecordedDelivery = turn.id;
      },
    );
    return true;
  }

  /** false when the turn ended here: the flush failed (the turn is rejected, inbox_unsafe) or it was cancelled meanwhile. */
  private async inboxFlushed(turn: TurnRow, flushed: Promise<void>, cur: Current): Promise<boolean> {
    const flush = await flushed.then(
      () => ({ ok: true as const }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (this.current !== cur) return false;
    if (flush.ok) return true;
    if (isStorageFullError(flush.error)) throw flush.error;
    await this.host.report('turn', flush.error, { turn: turn.id });
    await this.reject(turn, 'inbox_unsafe');
    return false;
  }

  private armTimeout(turn: TurnRow, cur: Current): void {
    const limit = turnTimeoutOf(this.host.agentConfig(), this.host.spec.client);
    if (limit === undefined || cur.expired) return;
    const elapsed = this.host.clock.now().getTime() - Date.parse(turn.startedAt);
    cur.timer = this.host.clock.setTimer(Math.max(0, limit - elapsed), () => {
      cur.timer = null;
      void this.expire(turn, cur, limit).catch((e: unknown) => this.host.report('turn_timeout', e, { turn: turn.id }));
    });
  }

  private async expire(turn: TurnRow, cur: Current, limit: number): Promise<void> {
    if (this.current !== cur || !(await this.host.store.markTurnTimedOut(turn.id))) return;
    cur.expired = true;
    await this.emit('turn_timeout', `Turn ${turn.id} exceeded ${limit} ms.`, { turn: turn.id, turn_timeout_ms: limit });
    this.host.pushes.push(this.host.swarm, {
      type: 'turn_completed',
      payload: { agent: this.host.name, turn: turn.id, status: 'timed_out', reply_preview: null },
    });
  }

  /** `receiptAt`: when the receipt was in hand; the turn event carries `receipt_latency_ms` from then to its emission. */
  private async complete(
    turn: TurnRow,
    cur: Current,
    receipt: Exclude<TurnReceipt, { kind: 'pending' }>,
    receiptAt: number,
  ): Promise<void> {
    if (this.current !== cur) return;
    cur.timer?.cancel();
    if (receipt.kind === 'refused') {
      await this.reject(turn, receipt.reason, receipt.file);
      return;
    }
    const status = receipt.status === 'ok' ? 'completed' : 'error';
    const preview = receipt.reply === null ? null : contentPreview(receipt.reply.trim());
    // The turn's event is written in the finish's transaction (one commit); none for a turn that expired.
    const type = status === 'completed' ? 'turn_completed' : 'turn_failed';
    const ended = this.host.events.along((finished: boolean) =>
      !finished || cur.expired
        ? null
        : {
            type,
            swarm: this.host.swarm,
            agent: this.host.name,
            message: `Turn ${turn.id} ${status === 'completed' ? 'completed' : 'failed'}.`,
            metadata: {
              turn: turn.id,
              ...(receipt.error === undefined ? {} : { error: receipt.error.slice(0, 200) }),
              receipt_latency_ms: Math.max(0, this.host.clock.now().getTime() - receiptAt),
            },
          },
    );
    const finish: TurnFinish = {
      status,
      error: receipt.error ?? null,
      replyPreview: preview,
      reply: receipt.reply,
      completedAt: this.host.now(),
    };
    if (!(await this.host.store.finishTurn(turn.id, finish, ended))) return;
    this.current = null;
    if (this.host.events.announce(ended) === null) {
      if (this.host.agentConfig()?.reply_to !== undefined) {
        await this.emit('auto_deliver_skipped', `Late receipt of turn ${turn.id}: nothing routed.`, {
          turn: turn.id,
          reason: 'turn_expired',
        });
      }
    } else {
      this.host.pushes.push(this.host.swarm, {
        type: 'turn_completed',
        payload: {
          agent: this.host.name,
          turn: turn.id,
          status,
          ...(receipt.error === undefined ? {} : { error: receipt.error }),
          reply_preview: preview,
        },
      });
      await this.host.routeCompletion(turn.id, receipt.reply ?? '', { sentTo: cur.sentTo, broadcast: cur.broadcast });
    }
    await this.becomeIdle();
  }

  /**
   * After a turn ends the agent takes the next item, unless it failed or stopped meanwhile (its client exited,
   * its tmux server died): it stays so and its queue waits for a restart. A delivery that failed
   * because the tmux server was killed set a failed agent `idle`, and each queued item then failed in turn.
   */
  private async becomeIdle(): Promise<void> {
    if (this.host.state === 'failed' || this.host.state === 'stopped') return;
    await this.host.setState('idle');
    this.host.kick();
  }

  /**
   * The runner could not deliver: the turn fails with `delivery_failed` and the runner's code; with `attention`
   * (client_prompt_blocked) the agent then waits for its operator instead of taking the next item.
   */
  private async finish(turn: TurnRow, error: string, code: string, attention: AttentionInfo | null = null): Promise<void> {
    this.current = null;
    // The inbox file may be written already: the host receipt keeps the next client process off it.
    // Receipt first, store second (host-receipt.ts): a crash in between is settled by recovery.
    await writeHostReceipt(this.host.workspace, turn.id, error);
    await this.host.store.finishTurn(turn.id, { status: 'error', error, replyPreview: null, completedAt: this.host.now() });
    await this.emit('turn_failed', `Turn ${turn.id} could not be delivered.`, { turn: turn.id, error, code });
    if (attention !== null && (this.host.state === 'busy' || this.host.state === 'idle')) await holdForAttention(this.host, attention);
    else await this.becomeIdle();
  }

  /**
   * The turn threw inside the engine (AgentSession.turnFailed): it stops being watched and ends as
   * `error` with `engine_error` — host receipt first, like every turn the host ends — unless it was
   * already final (the failure came after its store update). The caller makes the agent idle.
   */
  async failInternally(turn: TurnRow): Promise<void> {
    const cur = this.current;
    if (cur?.id === turn.id) {
      this.current = null;
      cur.timer?.cancel();
      cur.abort.abort();
    }
    await writeHostReceipt(this.host.workspace, turn.id, ENGINE_FAILED_ERROR);
    if (
      !(await this.host.store.finishTurn(turn.id, {
        status: 'error',
        error: ENGINE_FAILED_ERROR,
        replyPreview: null,
        completedAt: this.host.now(),
      }))
    )
      return;
    await this.emit('turn_failed', `Turn ${turn.id} failed inside the engine.`, { turn: turn.id, error: ENGINE_FAILED_ERROR });
    this.host.pushes.push(this.host.swarm, {
      type: 'turn_completed',
      payload: { agent: this.host.name, turn: turn.id, status: 'error', error: ENGINE_FAILED_ERROR, reply_preview: null },
    });
  }

  /**
   * Recovery found the host receipt of an open turn (the engine crashed after writing it, before the
   * store update): the turn ends as the host meant — cancelled, or error delivery_failed — once, with
   * its event, and is not delivered again. Returns true when this call made it final.
   */
  async settleFromHostReceipt(turn: TurnRow, error: string): Promise<boolean> {
    const cancelled = error === TURN_CANCELLED_ERROR;
    const finish = cancelled ? { status: 'cancelled' as const } : { status: 'error' as const, error };
    if (!(await this.host.store.finishTurn(turn.id, { ...finish, completedAt: this.host.now() }))) return false;
    if (cancelled) await this.emitCancelled(turn.id);
    else await this.emit('turn_failed', `Turn ${turn.id} could not be delivered.`, { turn: turn.id, error });
    return true;
  }

  /** One `turn_failed` (level info, `status: cancelled`) per cancelled turn (docs/observability.md has no turn_cancelled). */
  emitCancelled(turnId: string): Promise<unknown> {
    return this.host.events.emit({
      type: 'turn_failed',
      level: 'info',
      swarm: this.host.swarm,
      agent: this.host.name,
      message: `Turn ${turnId} cancelled.`,
      metadata: { turn: turnId, status: 'cancelled', error: TURN_CANCELLED_ERROR },
    });
  }

  /** Turn rejected, session needs_attention, receipt_rejected + agent_needs_attention + push; nothing routed. */
  private async reject(turn: TurnRow, reason: string, file?: string): Promise<void> {
    this.current = null;
    await this.host.store.finishTurn(turn.id, { status: 'rejected', reason, completedAt: this.host.now() });
    await this.emit('receipt_rejected', `Receipt of turn ${turn.id} rejected (${reason}).`, {
      turn: turn.id,
      reason,
      ...(file === undefined ? {} : { file }),
    });
    await this.host.setState('needs_attention', { reason, turn: turn.id });
    await this.emit('agent_needs_attention', `Agent ${this.host.name} needs attention (${reason}).`, { turn: turn.id, reason });
    this.host.pushes.push(this.host.swarm, { type: 'needs_attention', payload: { agent: this.host.name, turn: turn.id, reason } });
  }

  /**
   * Stop/restart/remove mid-turn (also a `timed_out` one): the turn becomes `cancelled`. Returns its id
   * when this call made it final — the caller then settles it once the process is gone
   * (`AgentSession.settleCancelled`) — else null.
   */
  async cancel(): Promise<string | null> {
    const cur = this.current;
    if (cur === null) return null;
    this.current = null;
    cur.timer?.cancel();
    cur.abort.abort();
    // The watcher is stopped: write the host receipt first, then finish in the store (host-receipt.ts).
    await writeHostReceipt(this.host.workspace, cur.id, TURN_CANCELLED_ERROR);
    if (!(await this.host.store.finishTurn(cur.id, { status: 'cancelled', completedAt: this.host.now() }))) return null;
    await this.emitCancelled(cur.id);
    return cur.id;
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
    this.current = null;
    cur.timer?.cancel();
    cur.abort.abort();
    const error = AGENT_EXITED_ERROR;
    await writeHostReceipt(this.host.workspace, cur.id, error);
    if (!(await this.host.store.finishTurn(cur.id, { status: 'error', error, replyPreview: null, completedAt: this.host.now() }))) return;
    await this.emit('turn_failed', `Turn ${cur.id} failed: the agent exited (${code}).`, { turn: cur.id, error, code });
    this.host.pushes.push(this.host.swarm, {
      type: 'turn_completed',
      payload: { agent: this.host.name, turn: cur.id, status: 'error', error, reply_preview: null },
    });
  }

  abandon(): void {
    const cur = this.current;
    this.current = null;
    cur?.timer?.cancel();
    cur?.abort.abort();
  }
}
