/**
 * Receipt → read latency through the Docker archive transport (docs/receipts.md "Remote receipts"): for each of N
 * turns a valid receipt is put in place inside the container, then one `readReceipt` look is timed (stat chain,
 * bounded GETs, local mirror + parse). Reported beside raw baselines measured in the same run (engine ping, one
 * HEAD, one pending look). A figure, not an assertion: skipped unless GENSWARMS_BENCH_ARCHIVE=1 (never in npm test).
 * Run: GENSWARMS_BENCH_ARCHIVE=1 npx jest -c libs/runners/jest.config.cjs archive-latency
 */
import { promises as fsp, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type Docker from 'dockerode';
import type { Container } from 'dockerode';
import { newTurnId } from '@genswarms/receipts';
import { dockerArchiveTransport } from '../../src/lib/docker/archive-transport';
import { remoteWorkspace } from '../../src/lib/remote/remote-workspace';
import { TEST_IMAGE, describeIfEngine } from './docker-support';

const ENABLED = process.env['GENSWARMS_BENCH_ARCHIVE'] === '1';
const TURNS = Number(process.env['GENSWARMS_BENCH_TURNS'] ?? '200');
const LABEL = { 'genswarms.test': 'archive-latency' };

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
  return `p50 ${at(50).toFixed(2)}  p90 ${at(90).toFixed(2)}  p99 ${at(99).toFixed(2)}  max ${(s[s.length - 1] ?? NaN).toFixed(2)} ms`;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

(ENABLED ? describeIfEngine : describe.skip)('bench: receipt → read latency through the Docker archive transport', () => {
  jest.setTimeout(1_800_000);
  let docker: Docker;
  let container: Container;
  let volume: string;

  beforeAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- dockerode has no ESM default under jest's CommonJS runtime
    const D = require('dockerode') as typeof Docker;
    docker = new D({ socketPath: '/var/run/docker.sock' });
    volume = `gs-archive-bench-${process.pid}-${Date.now()}`;
    await docker.createVolume({ Name: volume, Labels: LABEL });
    container = await docker.createContainer({
      Image: TEST_IMAGE,
      Cmd: ['/bin/sleep', '3600'],
      User: '1000:1000',
      Labels: LABEL,
      NetworkDisabled: true,
      HostConfig: { ReadonlyRootfs: true, Mounts: [{ Type: 'volume', Source: volume, Target: '/workspace' }] },
    });
    await container.start();
  });

  afterAll(async () => {
    await container?.remove({ force: true }).catch(() => undefined); // best-effort cleanup of what this bench created
    if (volume !== undefined)
      await docker
        .getVolume(volume)
        .remove()
        .catch(() => undefined); // best-effort, as above
  });

  it(`measures ${TURNS} receipt reads`, async () => {
    const t = dockerArchiveTransport(container, { owner: { uid: 1000, gid: 1000 } });
    const remote = '/workspace/bench';
    await t.ensurePrivateDir(remote);
    const local = realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'gs-archive-bench-')));
    const ws = remoteWorkspace(t, { remote, local });
    const ping: number[] = [];
    const head: number[] = [];
    const get: number[] = [];
    const pending: number[] = [];
    const read: number[] = [];
    for (let i = 0; i < TURNS; i += 1) {
      const turnId = newTurnId();
      await ws.prepareTurnDir(turnId);
      const dir = `${remote}/.genswarms/turns/${turnId}`;
      pending.push(await timed(() => ws.readReceipt(turnId)));
      // the client's side: reply.md, then done.json written under a temp name and renamed into place
      await t.writeNewFile(`${dir}/reply.md`, Buffer.from(`reply ${i}\n`.repeat(20)));
      await t.writeNewFile(`${dir}/.done.tmp`, Buffer.from(JSON.stringify({ v: 1, turn: turnId, status: 'ok' })));
      await t.rename(`${dir}/.done.tmp`, `${dir}/done.json`);
      let result: Awaited<ReturnType<typeof ws.readReceipt>> | undefined;
      read.push(await timed(async () => (result = await ws.readReceipt(turnId))));
      expect(result).toMatchObject({ kind: 'ok', status: 'ok' });
      ping.push(await timed(() => docker.ping()));
      head.push(await timed(() => t.lstat(`${dir}/done.json`)));
      get.push(
        await timed(async () => {
          const s = (await container.getArchive({ path: `${dir}/done.json` })) as AsyncIterable<Buffer>;
          for await (const chunk of s) void chunk; // drained: the engine's own cost of one archive GET
        }),
      );
    }
    await fsp.rm(local, { recursive: true, force: true });
    const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    process.stdout.write(
      [
        `archive transport, ${TURNS} turns, local engine over /var/run/docker.sock (vfs), this host's load:`,
        `  receipt read (one look, ok):  ${stats(read)}`,
        `  pending look (no done.json):  ${stats(pending)}`,
        `  baseline engine ping:         ${stats(ping)}`,
        `  baseline one HEAD (stat):     ${stats(head)}`,
        `  baseline one raw GET:         ${stats(get)}`,
        `  ratio read/ping p50: ${(p50(read) / p50(ping)).toFixed(1)}   read/HEAD p50: ${(p50(read) / p50(head)).toFixed(1)}   read/GET p50: ${(p50(read) / p50(get)).toFixed(1)}`,
        '',
      ].join('\n'),
    );
  });
});
