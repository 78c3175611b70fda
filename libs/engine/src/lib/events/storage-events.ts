/**
 * The record of a storage outage (docs/observability.md "storage_full"): a log line and a `storage_full` event
 * (level error) at its first refused write, a `storage_recovered` event (since, refused writes) at the first
 * write that succeeds again. The `storage_full` event itself may find no room: then the log line is its
 * record and `storage_recovered` carries the facts into the event log once space is back.
 */
import type { StorageEpisode, StorageWatch } from '../store/storage-full';
import type { Clock } from '../util/clock';
import type { EventBus } from './event-bus';

function facts(ep: StorageEpisode): Record<string, unknown> {
  return { since: ep.since, first_operation: ep.firstOperation, refused_writes: ep.refusedWrites };
}

/** The watch of the engine's store; `bus` is read at report time (the bus is built on the guarded store). */
export function storageWatch(bus: () => EventBus, clock: Clock): StorageWatch {
  let fullRecorded = true;
  const emitFull = (ep: StorageEpisode, late: boolean): Promise<unknown> =>
    bus().emit({
      type: 'storage_full',
      swarm: null,
      agent: null,
      level: 'error',
      message: late
        ? `Storage was full under GENSWARMS_HOME from ${ep.since}: writes were refused with storage_full (recorded once space returned).`
        : 'Storage is full under GENSWARMS_HOME: writes are refused with storage_full until space is freed.',
      metadata: { ...facts(ep), recorded_late: late },
    });
  return {
    now: () => clock.now().toISOString(),
    onFull(ep) {
      bus().logError('storage_full', { first_operation: ep.firstOperation, since: ep.since });
      fullRecorded = false;
      emitFull(ep, false).then(
        () => {
          fullRecorded = true;
        },
        () => undefined, // expected: no room for the event either; the log line is its record until space returns
      );
    },
    onRecovered(ep) {
      const late = fullRecorded ? Promise.resolve() : emitFull(ep, true);
      fullRecorded = true;
      late
        .then(() =>
          bus().emit({
            type: 'storage_recovered',
            swarm: null,
            agent: null,
            message: `Storage has room again; ${ep.refusedWrites} write(s) were refused with storage_full since ${ep.since}.`,
            metadata: facts(ep),
          }),
        )
        .catch((e: unknown) => bus().logError('storage_recovered_unrecorded', { code: (e as { code?: unknown }).code }));
    },
  };
}
