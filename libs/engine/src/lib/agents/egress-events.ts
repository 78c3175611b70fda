/** `egress_started` / `egress_stopped`: an isolated agent's forwarder, as the engine records it (docs/observability.md). */
import { EGRESS_SOCKET_NAME } from '@genswarms/egress';
import type { LaunchPlan, SessionDescription } from '@genswarms/runners';
import type { EventBus } from '../events/event-bus';

/** What the events say about a forwarder: the pinned upstream and the socket's file name (never its path). */
export interface EgressFacts {
  readonly host: string;
  readonly port: number;
  readonly socket: string;
}

/** Why a forwarder went: the agent was stopped (stop, restart, remove) or its process exited on its own. */
export type EgressStopReason = 'agent_stopped' | 'process_exited';

/**
 * The forwarder of a session that just launched: the re-adopted pin after a reattach, else the plan's;
 * null unless the agent is `network: isolated`. The socket sits below GENSWARMS_HOME, so only its file
 * name is recorded (the same in every agent's egress directory).
 */
export function egressFactsOf(plan: LaunchPlan, description: SessionDescription | null): EgressFacts | null {
  if (plan.spec.network !== 'isolated') return null;
  const pin = description?.egress ?? plan.egress;
  return pin === undefined ? null : { host: pin.host, port: pin.port, socket: EGRESS_SOCKET_NAME };
}

/** Why a forwarder failed: it could not start (the agent then fails to start), or it died under a running agent. */
export type EgressFailReason = 'forwarder_start_failed' | 'forwarder_exited';

/** `egress_failed` (level error): the agent has no route to its LLM; `detail` says what happened (never a key or path). */
export async function emitEgressFailed(
  events: EventBus,
  swarm: string,
  agent: string,
  facts: EgressFacts,
  reason: EgressFailReason,
  detail: string,
): Promise<void> {
  const what = reason === 'forwarder_exited' ? 'died while the agent runs' : 'could not start';
  await events.emit({
    type: 'egress_failed',
    swarm,
    agent,
    message: `Agent ${agent}: egress forwarder to ${hostPort(facts)} ${what} (${detail}); the agent cannot reach its LLM — restart it.`,
    metadata: { ...facts, reason, detail },
  });
}

export async function emitEgressStarted(events: EventBus, swarm: string, agent: string, facts: EgressFacts): Promise<void> {
  await events.emit({
    type: 'egress_started',
    swarm,
    agent,
    message: `Agent ${agent}: egress forwarder started, pinned to ${hostPort(facts)} (socket ${facts.socket}).`,
    metadata: { ...facts },
  });
}

export async function emitEgressStopped(
  events: EventBus,
  swarm: string,
  agent: string,
  facts: EgressFacts,
  reason: EgressStopReason,
): Promise<void> {
  await events.emit({
    type: 'egress_stopped',
    swarm,
    agent,
    message: `Agent ${agent}: egress forwarder to ${hostPort(facts)} stopped (${reason.replace(/_/g, ' ')}).`,
    metadata: { ...facts, reason },
  });
}

function hostPort(facts: EgressFacts): string {
  return `${facts.host.includes(':') ? `[${facts.host}]` : facts.host}:${facts.port}`;
}

/** One session's forwarder between its `egress_started` and its one end (`egress_stopped` or `egress_failed`). */
export class EgressRecord {
  private facts: EgressFacts | null = null;

  constructor(
    private readonly events: EventBus,
    private readonly swarm: string,
    private readonly agent: string,
  ) {}

  /** The launch gave the agent a forwarder: `egress_started`. */
  async started(plan: LaunchPlan, description: SessionDescription): Promise<void> {
    this.facts = egressFactsOf(plan, description);
    if (this.facts !== null) await emitEgressStarted(this.events, this.swarm, this.agent, this.facts);
  }

  /** The forwarder could not start (the agent then fails to start). */
  async startFailed(plan: LaunchPlan, detail: string): Promise<void> {
    const facts = egressFactsOf(plan, null);
    if (facts !== null) await emitEgressFailed(this.events, this.swarm, this.agent, facts, 'forwarder_start_failed', detail);
  }

  /** The forwarder died under the running client: one `egress_failed`, and it counts as the forwarder's end. */
  async lost(detail: string): Promise<void> {
    const facts = this.facts;
    if (facts === null) return;
    this.facts = null;
    await emitEgressFailed(this.events, this.swarm, this.agent, facts, 'forwarder_exited', detail);
  }

  /** Records the forwarder's end once; a release or crash records nothing (the next start records anew). */
  async ended(reason: EgressStopReason): Promise<void> {
    const facts = this.facts;
    this.facts = null;
    if (facts !== null) await emitEgressStopped(this.events, this.swarm, this.agent, facts, reason);
  }
}
