/**
 * The four ports every part of the engine works through: persistence, the event log, live pushes and time.
 * Declared once here; each consumer extends it or takes the `Pick<>` it uses.
 */
import type { EventBus } from '../events/event-bus';
import type { PushHub } from '../events/pushes';
import type { Store } from '../store/store';
import type { Clock } from './clock';

export interface CorePorts {
  readonly store: Store;
  readonly events: EventBus;
  readonly pushes: PushHub;
  readonly clock: Clock;
}
