/** Built-in handlers: recorder, echo, metrics, tick, counter. */
import type { AskResult, MessageResult, ObjectHandler, ObjectMessage } from './handler';
import { HandlerRegistry } from './handler';

const RECORDER_KEEP = 1000;

interface RecorderState {
  readonly messages: readonly { from: string; content: string; type: string }[];
}

const recorder: ObjectHandler = {
  init: (): RecorderState => ({ messages: [] }),
  onMessage: (msg: ObjectMessage, state: unknown): MessageResult => {
    const prev = (state as RecorderState).messages;
    return { state: { messages: [...prev, { from: msg.from, content: msg.content, type: msg.type }].slice(-RECORDER_KEEP) } };
  },
  onAsk: (_msg: ObjectMessage, state: unknown): AskResult => ({ state, reply: { count: (state as RecorderState).messages.length } }),
};

const echo: ObjectHandler = {
  init: (): null => null,
  onMessage: (msg: ObjectMessage, state: unknown): MessageResult => ({ state, send: { to: msg.from, content: msg.content } }),
  onAsk: (msg: ObjectMessage, state: unknown): AskResult => ({ state, reply: msg.content }),
};

type Counts = Readonly<Record<string, number>>;

const metrics: ObjectHandler = {
  init: (): { total: number; by_sender: Counts } => ({ total: 0, by_sender: {} }),
  onMessage: (msg: ObjectMessage, state: unknown): MessageResult => {
    const s = state as { total: number; by_sender: Counts };
    const by: Record<string, number> = Object.assign(Object.create(null) as Record<string, number>, s.by_sender);
    by[msg.from] = (by[msg.from] ?? 0) + 1;
    return { state: { total: s.total + 1, by_sender: { ...by } } };
  },
  onAsk: (_msg: ObjectMessage, state: unknown): AskResult => ({ state, reply: state }),
};

const tick: ObjectHandler = {
  init: (): { ticks: number } => ({ ticks: 0 }),
  onMessage: (_msg: ObjectMessage, state: unknown): MessageResult => ({ state: { ticks: (state as { ticks: number }).ticks + 1 } }),
  onAsk: (_msg: ObjectMessage, state: unknown): AskResult => ({ state, reply: state }),
};

/** Counts messages by `step`; `step` is mutable, `start` immutable, `api_token` secret. init refuses a non-numeric step. */
const counter: ObjectHandler = {
  configSchema: { step: { mutable: true }, start: { mutable: false }, api_token: { secret: true } },
  init: (config): { count: number; step: number } => {
    const step = config['step'] ?? 1;
    const start = config['start'] ?? 0;
    if (typeof step !== 'number' || !Number.isFinite(step)) throw new Error('counter: step must be a number');
    if (typeof start !== 'number' || !Number.isFinite(start)) throw new Error('counter: start must be a number');
    return { count: start, step };
  },
  onMessage: (_msg: ObjectMessage, state: unknown): MessageResult => {
    const s = state as { count: number; step: number };
    return { state: { ...s, count: s.count + s.step } };
  },
  onAsk: (_msg: ObjectMessage, state: unknown): AskResult => ({ state, reply: (state as { count: number }).count }),
};

export const BUILTIN_HANDLERS: Readonly<Record<string, ObjectHandler>> = { recorder, echo, metrics, tick, counter };

/** A registry holding the built-ins; embedders `register` more. */
export function createHandlerRegistry(): HandlerRegistry {
  const reg = new HandlerRegistry();
  for (const [name, handler] of Object.entries(BUILTIN_HANDLERS)) reg.register(name, handler);
  return reg;
}
