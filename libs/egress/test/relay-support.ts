/** Real servers and a recording meter for the relay specs (no mocks: real sockets, real socat). */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Admission, EgressMeter, Forwarder, RelayOutcome, RelayRejection, RelayRequest, RelayTimeouts } from '../src/index';
import { planEgress, startForwarder } from '../src/index';

export const SOCAT = ['/usr/bin/socat', '/bin/socat', '/usr/local/bin/socat'].find((p) => existsSync(p));

/** A meter that admits `budget` requests, then refuses; it records everything it is told. */
export class RecordingMeter implements EgressMeter {
  readonly admitted: RelayRequest[] = [];
  readonly refused: RelayRequest[] = [];
  readonly settled: RelayOutcome[] = [];
  readonly rejected: RelayRejection[] = [];
  throwOnAdmit = false;
  private settledWaiters: Array<() => void> = [];

  constructor(public budget = Number.POSITIVE_INFINITY) {}

  admit(request: RelayRequest): Admission {
    if (this.throwOnAdmit) throw new Error('store down');
    if (this.admitted.length >= this.budget) {
      this.refused.push(request);
      return { kind: 'refuse', type: 'budget_exhausted', message: 'request budget exhausted', retryAfterS: 30 };
    }
    this.admitted.push(request);
    return { kind: 'admit', ticket: this.admitted.length };
  }

  settle(_ticket: unknown, outcome: RelayOutcome): void {
    this.settled.push(outcome);
    for (const w of this.settledWaiters.splice(0)) w();
  }

  reject(rejection: RelayRejection): void {
    this.rejected.push(rejection);
  }

  /** Resolves once `n` calls have settled. */
  async waitSettled(n: number): Promise<RelayOutcome[]> {
    while (this.settled.length < n) await new Promise<void>((resolve) => this.settledWaiters.push(resolve));
    return this.settled;
  }
}

/** A raw TCP upstream on 127.0.0.1: `onRequest` gets each connection's first bytes (a request head at least). */
export async function startRawUpstream(
  onConnection: (socket: Socket, seen: string[]) => void,
): Promise<{ port: number; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onConnection(socket, seen);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Writes `bytes` to the unix socket, collects what comes back until the relay closes or `quietMs` pass without a byte. */
export function rawExchange(socketPath: string, bytes: Buffer | string, quietMs = 400): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const s = connect(socketPath);
    let text = '';
    let timer = setTimeout(() => finish(false), quietMs);
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      s.destroy();
      resolve({ text, closed });
    };
    s.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(() => finish(false), quietMs);
    });
    s.on('close', () => finish(true));
    s.on('error', () => undefined);
    s.write(bytes);
  });
}

/** A metered forwarder (real socat) pinned to 127.0.0.1:`port` in a fresh temp home; `cleanup` stops it and removes the home. */
export async function meteredForwarder(
  port: number,
  meter: EgressMeter,
  relayTimeouts?: Partial<RelayTimeouts>,
): Promise<{ fwd: Forwarder; root: string; cleanup(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'gs-relay-'));
  const target = planEgress({ policy: { defaultEndpoint: `http://127.0.0.1:${port}/v1`, allowedHosts: ['127.0.0.1'] } });
  const fwd = await startForwarder({
    socat: SOCAT ?? '/usr/bin/socat',
    dir: join(root, 'egress', 's', 'a'),
    target,
    meter,
    ...(relayTimeouts === undefined ? {} : { relayTimeouts }),
  });
  return {
    fwd,
    root,
    cleanup: async () => {
      await fwd.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
