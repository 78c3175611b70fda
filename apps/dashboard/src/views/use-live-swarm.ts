import { useEffect, useRef, useState } from 'preact/hooks';
import { call, reportDenied } from '../lib/api';
import { connectSwarm } from '../lib/live';
import type { LiveSwarm, PushName } from '../lib/live';
import { SwarmModel } from '../lib/swarm-model';

/** Minimum gap between two re-reads of the agent list that pushes asked for (never a timer on its own). */
const STALE_REFRESH_MS = 2000;

export interface LiveSwarmState {
  readonly model: SwarmModel;
  readonly live: LiveSwarm | undefined;
  readonly error: unknown;
  readonly version: number;
  readonly reload: () => void;
}

/**
 * Loads a swarm once, then keeps it current from socket pushes. Renders at most once per animation
 * frame however fast pushes arrive; `extra` sees every push too (the agent page's terminal).
 */
export function useLiveSwarm(swarm: string, extra?: (name: PushName, payload: Record<string, unknown>) => void): LiveSwarmState {
  const model = useRef(new SwarmModel()).current;
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(undefined);
  const [live, setLive] = useState<LiveSwarm | undefined>(undefined);
  const extraRef = useRef(extra);
  extraRef.current = extra;
  const reloadRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    let frame = 0;
    let lastRefresh = 0;
    let refreshing = false;
    let closed = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const refreshAgents = (): void => {
      if (refreshing || closed) return;
      refreshing = true;
      lastRefresh = Date.now();
      const marks = model.staleMarks;
      call('listAgents', { params: { s: swarm } })
        .then((r) => model.loadAgents(r.agents, marks))
        .catch(() => undefined) // best-effort: the next push asks again; the page keeps its last rows
        .finally(() => {
          refreshing = false;
          schedule();
        });
    };
    const schedule = (): void => {
      if (frame !== 0 || closed) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const wait = lastRefresh + STALE_REFRESH_MS - Date.now();
        if (model.stale && wait <= 0) refreshAgents();
        else if (model.stale && retry === undefined) retry = setTimeout(() => ((retry = undefined), schedule()), wait); // the re-read a push asked for
        setVersion(model.version);
      });
    };
    const load = (): void => {
      call('getSwarm', { params: { s: swarm } })
        .then((d) => {
          model.load(d);
          schedule();
        })
        .catch(setError);
    };
    reloadRef.current = load;
    load();
    const conn = connectSwarm(
      swarm,
      (name, payload) => {
        model.apply(name, payload, new Date().toISOString());
        extraRef.current?.(name, payload);
        schedule();
      },
      reportDenied,
    );
    conn.ready.then((recent) => (model.addEvents(recent), schedule())).catch(setError);
    setLive(conn);
    return () => {
      closed = true;
      if (frame !== 0) cancelAnimationFrame(frame);
      if (retry !== undefined) clearTimeout(retry);
      conn.close();
    };
  }, [swarm]);
  return { model, live, error, version, reload: () => reloadRef.current() };
}
