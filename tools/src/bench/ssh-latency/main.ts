/**
 * Receipt latency over SSH (docs/runners.md "ssh"): a /bin/sh protocol client behind a real sshd answers N turns; for
 * each, the time from the client's `mv done.tmp done.json` (its clock, in reply.md) to the ssh handle returning the
 * verified receipt (what the engine then turns into `turn_completed`). Prints figures; asserts nothing.
 * Usage: npm run bench:ssh-latency -- [turns=50] [--mode both|push|poll]   (both: the poll baseline, then the push).
 * Each mode starts its own agent and runs one uncounted warm-up turn first.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newTurnId, prepareTurnDir, writeFileUnder } from '@genswarms/receipts';
import { buildRunnerContext, createSshRunner } from '@genswarms/runners';
import { startTestSshd, type TestSshd } from '../../sshd/test-sshd';

const CLIENT = `#!/bin/sh
ws=$GENSWARMS_WORKSPACE
while :; do
  for f in "$ws"/.inbox/*.json; do
    [ -f "$f" ] || continue
    turn=$(sed -n 's/.*"turn":"\\([a-z0-9_-]*\\)".*/\\1/p' "$f")
    mv -f "$f" "$f.seen"
    d="$ws/.genswarms/turns/$turn"
    printf '{"v":1,"turn":"%s","status":"ok"}' "$turn" > "$d/.done.tmp"
    date +%s%N > "$d/reply.md"
    mv "$d/.done.tmp" "$d/done.json"
  done
  sleep 0.01
done
`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

type Mode = 'push' | 'poll';

/** `[turns] [--mode both|push|poll]` → the turn count and the modes to run, in order. */
export function parseSshLatencyArgs(argv: readonly string[]): { turns: number; modes: Mode[] } {
  let turns = 50;
  let modes: Mode[] = ['poll', 'push'];
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i] ?? '';
    if (a === '--mode') {
      const m = argv[(i += 1)];
      if (m === 'both') modes = ['poll', 'push'];
      else if (m === 'push' || m === 'poll') modes = [m];
      else throw new Error('--mode must be both, push or poll');
    } else if (/^[0-9]+$/.test(a) && Number(a) > 0) turns = Number(a);
    else throw new Error(`unknown argument ${a}`);
  }
  return { turns, modes };
}

export async function runSshLatencyBench(argv: readonly string[]): Promise<number> {
  const { turns, modes } = parseSshLatencyArgs(argv);
  const sshd = await startTestSshd();
  try {
    process.stdout.write(
      `load average at start: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
    );
    for (const mode of modes) await runMode(sshd, mode, turns);
    process.stdout.write(
      `load average at end: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
    );
    return 0;
  } finally {
    await sshd.stop();
  }
}

async function runMode(sshd: TestSshd, mode: Mode, turns: number): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gs-ssh-bench-')));
  chmodSync(root, 0o711);
  const runner = createSshRunner({ receiptPush: mode === 'push' });
  try {
    const client = path.join(root, 'client.sh');
    writeFileSync(client, CLIENT, { mode: 0o755 });
    const knownHosts = path.join(root, 'known_hosts');
    writeFileSync(knownHosts, `${sshd.knownHostsLine()}\n`);
    const home = path.join(root, 'home');
    mkdirSync(home, { mode: 0o700 });
    /** hrtime → wall clock (ns), fixed once: the client stamps reply.md with `date +%s%N`. */
    const wallOffsetNs = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();
    const ctx = buildRunnerContext({
      path: '/usr/local/bin:/usr/bin:/bin',
      home,
      uid: process.getuid?.() ?? 0,
      gid: process.getgid?.() ?? 0,
      agentEntry: client,
      node: process.execPath,
      llm: { allowedHosts: [] },
    });
    const workspace = path.join(root, 'ws');
    const spec = {
      swarm: 'bench',
      agent: 'remote',
      backend: 'ssh' as const,
      host: `${sshd.user}@${sshd.host}`,
      client: { command: ['/bin/sh', client] },
      network: 'open' as const,
      workspace,
      skills: [],
      unsafeBypass: false,
      topologyTargets: [],
      config: {},
      backendOpts: { port: sshd.port, key_path: sshd.userKeyPath, known_hosts: knownHosts },
    };
    const handle = await runner.start(runner.plan(spec, ctx), ctx);
    const latencies: number[] = [];
    // turn 0 is a warm-up, not counted: the client and (push mode) the remote watcher have just started
    for (let i = 0; i <= turns; i += 1) {
      const id = newTurnId();
      await prepareTurnDir(workspace, id);
      await writeFileUnder(
        workspace,
        ['.inbox'],
        `${String(i).padStart(4, '0')}_bench.json`,
        JSON.stringify({ from: 'bench', content: 'x', seq: i, turn: id }),
      );
      await handle.deliver({ turnId: id, seq: i, from: 'bench', content: 'x', clientTurnsDir: '' });
      const r = await handle.watchReceipt?.(id, { signal: new AbortController().signal });
      const done = process.hrtime.bigint() + wallOffsetNs;
      if (r?.kind !== 'ok' || r.reply === null) throw new Error(`turn ${i}: ${JSON.stringify(r)}`);
      if (i > 0) latencies.push(Number(done - BigInt(r.reply.trim())) / 1e6);
    }
    await handle.stop();
    // the remote host is this machine: remove the agent directory the run made under ~/.genswarms-ssh
    const remoteDir = handle.describe().remote?.dir;
    if (remoteDir !== undefined) rmSync(remoteDir, { recursive: true, force: true });
    const sorted = [...latencies].sort((a, b) => a - b);
    const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
    process.stdout.write(
      `ssh receipt latency, ${mode === 'push' ? 'pushed (remote watcher)' : 'polled (250 ms, no watcher)'}, over ${turns} turns (receipt written → verified receipt returned), ms: ` +
        `p50 ${percentile(sorted, 50).toFixed(1)}  p90 ${percentile(sorted, 90).toFixed(1)}  p99 ${percentile(sorted, 99).toFixed(1)}  ` +
        `max ${(sorted[sorted.length - 1] ?? NaN).toFixed(1)}  mean ${mean.toFixed(1)}\n`,
    );
  } finally {
    await runner.close?.('shutdown');
    rmSync(root, { recursive: true, force: true });
  }
}
