/**
 * The effects port of one agent session (session-ports.ts): the store, the event log, pushes, the runner handle,
 * the workspace files, the clock and outbox routing, behind one object. The session executes its machine's
 * decisions through it; the turn runner uses it directly. It holds no session state: only the agent's handle
 * and launch spec, which the session sets on each start, and its outbox router.
 */
import type { AgentConfig } from '@genswarms/ir-gate';
import { newTurnId, prepareTurnDir, watchTurn, type PreparedTurnDir, type TurnReceipt } from '@genswarms/receipts';
import type { AgentLaunchSpec, IsolationReport, RunnerHandle, SessionDescription, TurnDelivery } from '@genswarms/runners';
import type { EmitInput, EventBus } from '../events/event-bus';
import type { FailureSite } from '../events/failure-report';
import type { EnginePush } from '../events/pushes';
import type { AttentionInfo, EventAlong, SessionState, Store, TurnRow } from '../store/store';
import type { TimerHandle } from '../util/clock';
import type { AgentFailure } from './agent-failure';
import { attentionEvent } from './client-attention';
import { writeHostReceipt } from './host-receipt';
import { writeInboxFile } from './inbox-file';
import { clientTurnsDir, isTuiBackend } from './launch-spec';
import { OutboxRouter } from './outbox-routing';
import type { SessionHost } from './session-host';
import type { InboxWrite, TurnPort, TurnSends } from './session-ports';
import { turnTimeoutOf } from './turn-timeout';

export class AgentEffects implements TurnPort {
  /** The running client (null before a start, after a stop). */
  handle: RunnerHandle | null = null;
  readonly store: Store;
  readonly events: EventBus;
  /** This agent's outbox, markers and reply_to (outbox-routing.ts). */
  private readonly outbox: OutboxRouter;

  constructor(
    private readonly host: SessionHost,
    readonly name: string,
    public spec: AgentLaunchSpec,
  ) {
    ({ store: this.store, events: this.events } = host);
    this.outbox = new OutboxRouter(host, name);
  }

  get agent(): string {
    return this.name;
  }
  get swarm(): string {
    return this.host.swarm;
  }
  get workspace(): string {
    return this.spec.workspace;
  }

  agentConfig(): AgentConfig | undefined {
    return this.host.agentConfig(this.name);
  }
  turnTimeoutMs(): number | undefined {
    return turnTimeoutOf(this.agentConfig(), this.spec.client);
  }
  replyTo(): string | undefined {
    return this.agentConfig()?.reply_to;
  }
  isTui(): boolean {
    return isTuiBackend(this.spec.backend);
  }

  // ---- time ----
  now(): string {
    return this.host.clock.now().toISOString();
  }
  nowMs(): number {
    return this.host.clock.now().getTime();
  }
  setTimer(ms: number, fire: () => void): TimerHandle {
    return this.host.clock.setTimer(ms, fire);
  }

  // ---- persistence, events, pushes ----
  /** Stores the session's state; `lastActivity` is the time stored with it. */
  async persistState(state: SessionState, attention: AttentionInfo | null, lastActivity: string): Promise<void> {
    await this.host.store.setSessionState(this.host.swarm, this.name, state, attention, lastActivity);
  }

  async persistSession(row: {
    state: SessionState;
    attention: AttentionInfo | null;
    description: SessionDescription | null;
    startedAt: string | null;
    lastActivity: string | null;
  }): Promise<void> {
    await this.host.store.upsertSession({
      swarm: this.host.swarm,
      agent: this.name,
      state: row.state,
      needsAttention: row.attention,
      description: row.description,
      workspace: this.workspace,
      startedAt: row.startedAt,
      lastActivity: row.lastActivity,
    });
  }

  /** One event of this agent (`swarm` and `agent` filled in). */
  emitOwn(input: Omit<EmitInput, 'swarm' | 'agent'>): Promise<unknown> {
    return this.host.events.emit({ ...input, swarm: this.host.swarm, agent: this.name });
  }

  push(push: EnginePush): void {
    this.host.pushes.push(this.host.swarm, push);
  }

  report(where: FailureSite, error: unknown, metadata: Record<string, unknown> = {}): Promise<void> {
    return this.host.events.reportFailure({ where, swarm: this.host.swarm, agent: this.name, error, metadata });
  }

  /** One `agent_needs_attention` (worded for a hold or a rejected receipt) and the `needs_attention` push. */
  async announceAttention(attention: AttentionInfo, wording: 'hold' | 'rejected'): Promise<void> {
    const { message, metadata } = attentionEvent(this.name, attention, wording);
    await this.emitOwn({ type: 'agent_needs_attention', message, metadata });
    this.push({ type: 'needs_attention', payload: { agent: this.name, turn: attention.turn, reason: attention.reason } });
  }

  /** `agent_ready`: after a start, or (with the turn) after a re-attach mid-turn. */
  async announceReady(resumed: TurnRow | null): Promise<void> {
    if (resumed === null) await this.emitOwn({ type: 'agent_ready', message: `Agent ${this.name} is ready.` });
    else
      await this.emitOwn({
        type: 'agent_ready',
        message: `Agent ${this.name} re-attached; resuming turn ${resumed.id}.`,
        metadata: { turn: resumed.id },
      });
  }

  /** The failure is logged once and recorded as `agent_failed` (`reason` = the code); `cause` reaches only the log. */
  async recordFailure(failure: AgentFailure, metadata: Record<string, unknown>, cause: unknown): Promise<void> {
    const fields = { reason: failure.code, message: failure.message, ...failure.details, ...metadata };
    this.host.events.logError('agent_failed', {
      swarm: this.host.swarm,
      agent: this.name,
      ...fields,
      ...(cause instanceof Error && cause.message !== failure.message ? { detail: cause.message.slice(0, 200) } : {}),
    });
    await this.emitOwn({
      type: 'agent_failed',
      message: `Agent ${this.name} failed: ${failure.code}: ${failure.message}`,
      metadata: fields,
    });
  }

  /** The start's notices worth an event of their own. */
  async emitNotices(notices: readonly string[]): Promise<void> {
    for (const notice of notices) {
      // ssh_host_key_unverified: an ssh agent connected with silently_accept_hosts (docs/security.md "ssh trust model");
      // network_unfiltered: a none/isolated swarm task without the network filter (docs/runners.md "swarm")
      if (
        notice === 'api_key_withheld' ||
        notice === 'unsafe_bypass_enabled' ||
        notice === 'ssh_host_key_unverified' ||
        notice === 'network_unfiltered'
      )
        await this.emitOwn({ type: notice, message: `Agent ${this.name}: ${notice.replace(/_/g, ' ')}.` });
    }
  }

  /**
   * Reads the isolation the live client really has (docs/runners.md "Effective isolation"). When it contradicts
   * the plan: one `agent_needs_attention` with the differences, and the hold to keep (`isolation_mismatch`). A
   * runner without the check (ssh, apple_container, mock) gives null.
   */
  async readIsolation(): Promise<{ readonly isolation: IsolationReport | null; readonly hold: AttentionInfo | null }> {
    const handle = this.handle;
    if (handle?.isolation === undefined) return { isolation: null, hold: null };
    let isolation: IsolationReport;
    try {
      isolation = await handle.isolation();
    } catch (e) {
      // A client that already exited has nothing to read (its exit is reported on its own); otherwise the check
      // itself failed: reported, and the agent keeps running.
      // expected: a handle that cannot even answer health() is gone, which counts as exited
      const health = await handle.health().catch(() => 'exited' as const);
      if (health === 'running') await this.report('isolation_check', e);
      return { isolation: null, hold: null };
    }
    if (isolation.differences.length === 0) return { isolation, hold: null };
    await this.emitOwn({
      type: 'agent_needs_attention',
      message: `Agent ${this.name} needs attention (isolation_mismatch): the running process does not have the isolation its plan promised.`,
      metadata: { reason: 'isolation_mismatch', differences: isolation.differences },
    });
    return { isolation, hold: { reason: 'isolation_mismatch', turn: null } };
  }

  /** Reads the next queued item into a turn, exactly once (one transaction, its `turn_started` written with it). */
  async dispatchNext(messagesOnly: boolean, seqFloor: number): Promise<{ turn: TurnRow | null; started: EventAlong<TurnRow> }> {
    const started = this.host.events.along((t: TurnRow) => ({
      type: 'turn_started',
      swarm: this.host.swarm,
      agent: this.name,
      message: `Turn ${t.id} started.`,
      metadata: { turn: t.id, item_id: t.itemId, from: t.from },
    }));
    const req = { swarm: this.host.swarm, agent: this.name, turnId: newTurnId(), now: this.now(), messagesOnly, seqFloor };
    return { turn: await this.host.store.dispatchNext(req, started), started };
  }

  // ---- the workspace and the client ----
  prepareTurnDir(turnId: string): Promise<PreparedTurnDir> {
    return prepareTurnDir(this.workspace, turnId);
  }
  writeInbox(turn: TurnRow): Promise<InboxWrite> {
    return writeInboxFile(this.workspace, turn, this.now());
  }
  async writeHostReceipt(turnId: string, error: string): Promise<void> {
    await writeHostReceipt(this.workspace, turnId, error);
  }
  async deliver(delivery: Omit<TurnDelivery, 'clientTurnsDir'>): Promise<void> {
    await this.handle?.deliver({ ...delivery, clientTurnsDir: clientTurnsDir(this.spec) });
  }
  /** A remote client (ssh) writes its receipt on its own host: the runner watches it under the same rules. */
  watch(turnId: string, signal: AbortSignal): Promise<TurnReceipt> {
    const handle = this.handle;
    if (handle?.watchReceipt !== undefined) return handle.watchReceipt(turnId, { signal });
    const pollMs = this.host.receiptPollMs;
    return watchTurn(this.workspace, turnId, {
      signal,
      requireTurnDir: true, // the delivery created it; gone now = the agent removed it (receipt_replaced)
      ...(pollMs === undefined ? {} : { pollMs }),
    });
  }

  // ---- routing ----
  trackSends(sends: TurnSends | null): void {
    this.outbox.track(sends);
  }
  route(turnId: string, reply: string, sends: TurnSends): Promise<void> {
    return this.outbox.complete(this.workspace, turnId, reply, sends);
  }
  /** One drain of the outbox (in order with every other drain of this agent). */
  drainOutbox(turnId: string | null): Promise<void> {
    return this.outbox.drain(this.workspace, turnId);
  }
  /** What a cancelled turn's process left in `.outbox` is deleted unrouted, in the drains' order. */
  discardOutbox(turnId: string): Promise<void> {
    return this.outbox.discard(this.workspace, turnId);
  }
}
