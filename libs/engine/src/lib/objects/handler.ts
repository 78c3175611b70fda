/**
 * docs/messaging.md: an object handler is TypeScript code registered with the engine under a name.
 * Configs name it; nothing is ever loaded from a path or module named in a request.
 */
import { isName } from '@genswarms/ir-gate';

export interface ObjectMessage {
  readonly swarm: string;
  readonly object: string;
  readonly from: string;
  readonly content: string;
  readonly type: 'direct' | 'broadcast' | 'ask';
}

export interface OutgoingSend {
  readonly to: string;
  readonly content: string;
}

export interface MessageResult {
  readonly state: unknown;
  readonly send?: OutgoingSend | readonly OutgoingSend[];
  readonly broadcast?: string;
}

export interface AskResult {
  readonly state: unknown;
  readonly reply?: unknown;
}

export interface ConfigKeySpec {
  readonly mutable?: boolean;
  readonly secret?: boolean;
}

export interface ObjectHandler {
  init(config: Readonly<Record<string, unknown>>): unknown;
  onMessage(msg: ObjectMessage, state: unknown): MessageResult | Promise<MessageResult>;
  onAsk?(msg: ObjectMessage, state: unknown): AskResult | Promise<AskResult>;
  readonly configSchema?: Readonly<Record<string, ConfigKeySpec>>;
}

/** Handlers by name (a Map: names may come from configs). */
export class HandlerRegistry {
  private readonly handlers = new Map<string, ObjectHandler>();

  register(name: string, handler: ObjectHandler): void {
    if (!isName(name)) throw new TypeError('handler names follow the Name grammar');
    this.handlers.set(name, handler);
  }

  get(name: string): ObjectHandler | undefined {
    return this.handlers.get(name);
  }

  has(name: string): boolean {
    return this.handlers.has(name);
  }

  names(): string[] {
    return [...this.handlers.keys()].sort();
  }
}
