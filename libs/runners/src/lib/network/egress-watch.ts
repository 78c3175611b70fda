import type { Forwarder } from '@genswarms/egress';
import type { RunnerHandle } from '../port';

/**
 * Gives `handle` an `onEgressLost` fed by its forwarder's unexpected exit (a forwarder stopped with the
 * handle reports nothing). The same handle object is returned, so class handles keep their methods.
 */
export function watchEgress<H extends RunnerHandle>(handle: H, forwarder: Forwarder | undefined): H {
  if (forwarder?.onUnexpectedExit === undefined) return handle;
  const listeners: Array<(detail: string) => void> = [];
  forwarder.onUnexpectedExit((detail) => {
    for (const l of listeners.splice(0)) l(detail);
  });
  return Object.assign(handle, { onEgressLost: (listener: (detail: string) => void): void => void listeners.push(listener) });
}
