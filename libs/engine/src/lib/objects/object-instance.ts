/** One running object: handler state, lifecycle, message/ask dispatch; survives handler errors. */
import type { AskResult, MessageResult, ObjectHandler, ObjectMessage } from './handler';

/** Called after every state change (init, restore excluded, message, ask, reconfigure); must not throw. */
export type StatePersister = (inst: ObjectInstance) => Promise<void>;

export type ObjectLifecycle = 'starting' | 'running' | 'error' | 'stopped';

export type DeliverOutcome = { kind: 'ok'; result: MessageResult } | { kind: 'failed'; error: string } | { kind: 'not_running' };
export type AskOutcome = { kind: 'ok'; result: AskResult } | { kind: 'failed'; error: string } | { kind: 'error_state' };

function errorText(e: unknown): string {
  return e instanceof Error ? e.message.slice(0, 200) : 'handler error';
}

export class ObjectInstance {
  lifecycle: ObjectLifecycle = 'starting';
  state: unknown = null;
  lastError: string | null = null;
  /** Set by the engine: saves the state to the store (see swarms/object-state-store.ts). */
  persister: StatePersister | null = null;

  constructor(
    readonly name: string,
    readonly handlerName: string,
    readonly handler: ObjectHandler,
    public config: Readonly<Record<string, unknown>>,
  ) {}

  /** Runs `init`; on failure the object is in `error` state (asks answer object_error_state). */
  async start(): Promise<{ ok: true } | { ok: false; error: string }> {
    try {
      this.state = await this.handler.init(structuredClone(this.config));
      this.lifecycle = 'running';
      this.lastError = null;
      await this.persist();
      return { ok: true };
    } catch (e) {
      this.lifecycle = 'error';
      this.lastError = errorText(e);
      return { ok: false, error: this.lastError };
    }
  }

  /** Re-initialises with a new config; on failure the old config and state are restored. */
  async reconfigure(next: Readonly<Record<string, unknown>>): Promise<{ ok: true } | { ok: false; error: string }> {
    try {
      const state = await this.handler.init(structuredClone(next));
      this.config = next;
      this.state = state;
      this.lifecycle = 'running';
      await this.persist();
      return { ok: true };
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  }

  /** Takes a persisted state instead of running `init` (recovery, restart). */
  restore(state: unknown): void {
    this.state = state;
    this.lifecycle = 'running';
    this.lastError = null;
  }

  private async persist(): Promise<void> {
    // best-effort: the persister reports its own save failures (object_error); only that report can fail here
    if (this.persister !== null) await this.persister(this).catch(() => undefined);
  }

  stop(): void {
    this.lifecycle = 'stopped';
  }

  async deliver(msg: ObjectMessage): Promise<DeliverOutcome> {
    if (this.lifecycle !== 'running') return { kind: 'not_running' };
    try {
      const result = await this.handler.onMessage(msg, this.state);
      this.state = result.state;
      await this.persist();
      return { kind: 'ok', result };
    } catch (e) {
      this.lastError = errorText(e);
      return { kind: 'failed', error: this.lastError };
    }
  }

  async ask(msg: ObjectMessage): Promise<AskOutcome> {
    if (this.lifecycle !== 'running') return { kind: 'error_state' };
    if (this.handler.onAsk === undefined) return { kind: 'ok', result: { state: this.state } };
    try {
      const result = await this.handler.onAsk(msg, this.state);
      this.state = result.state;
      await this.persist();
      return { kind: 'ok', result };
    } catch (e) {
      this.lastError = errorText(e);
      return { kind: 'failed', error: this.lastError };
    }
  }
}
