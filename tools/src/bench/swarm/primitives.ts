import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT } from '../../build-once/build-once';
import { snapshotProcs } from './leftovers';
import { quantile } from './quantile';
import { FifoLines, latencyOf, type PasteLatency } from './paste-latency';
import { RawControl } from './raw-control';

const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' };

/** Median of a sample (0 for none). */
export function median(xs: readonly number[]): number {
  return quantile(xs, 0.5);
}

/** Nearest-rank quantile. */
export { quantile } from './quantile';

function runOnce(file: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(file, args, { shell: false, stdio: ['ignore', 'ignore', 'pipe'], env: {} });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(0, 500)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${file} exited ${code}: ${stderr.trim().split('\n')[0] ?? ''}`)),
    );
  });
}

/**
 * The argv the server used for one running bwrap agent of `swarm` (privilege drop + bwrap + flags),
 * with the client after `--` replaced by `/bin/true`: the raw primitive "bwrap with our flags". A bwrap
 * that loads a seccomp filter (`--seccomp 3`) got it on fd 3 from genswarms-seccomp-exec, as here: the
 * swarm's compiled filter (`<home>/manifests/<swarm>/<agent>/*.bpf`) is copied to `filterDir` for the runs.
 */
export function capturedBwrapArgv(swarm: string, home: string, filterDir: string): string[] | undefined {
  const needle = `/${swarm}/`;
  for (const p of snapshotProcs()) {
    const words = p.cmdline.split('\0').filter((w) => w !== '');
    const b = words.findIndex((w) => w.endsWith('/bwrap'));
    const sep = words.indexOf('--', b);
    if (b === -1 || sep === -1 || !p.cmdline.includes(needle)) continue;
    // setpriv exec'd bwrap, so the drop to the agent uid is not in this argv: add it back as the server does
    const ids = runningIds(p.pid);
    // per-agent identities keep one supplementary group (the agents' traversal group): without it the
    // sandbox cannot reach its bind sources below the 0710 directories
    const groups = ids === undefined || ids.groups.length === 0 ? ['--clear-groups'] : [`--groups=${ids.groups.join(',')}`];
    const drop = ids === undefined || ids.uid === 0 ? [] : [SETPRIV, `--reuid=${ids.uid}`, `--regid=${ids.gid}`, ...groups, '--'];
    const sandbox = [...drop, ...words.slice(b, sep), '--', '/bin/true'];
    if (!words.slice(b, sep).includes('--seccomp')) return sandbox;
    const filter = copySwarmFilter(join(home, 'manifests', swarm), filterDir);
    return filter === undefined ? undefined : [SECCOMP_EXEC, filter, ...sandbox];
  }
  return undefined;
}

/** The launcher that opens a filter on fd 3 for `bwrap --seccomp 3` (the runners' own asset). */
const SECCOMP_EXEC = join(REPO_ROOT, 'libs/runners/assets/genswarms-seccomp-exec');

/** A copy of one agent's compiled filter of the swarm (every agent of a bench swarm has the same one). */
function copySwarmFilter(manifests: string, dir: string): string | undefined {
  for (const agent of readdirSync(manifests)) {
    const bpf = readdirSync(join(manifests, agent)).find((f) => f.endsWith('.bpf'));
    if (bpf === undefined) continue;
    const copy = join(dir, 'bench.bpf');
    writeFileSync(copy, readFileSync(join(manifests, agent, bpf)), { mode: 0o444 });
    return copy;
  }
  return undefined;
}

const SETPRIV = '/usr/bin/setpriv';

function runningIds(pid: number): { uid: number; gid: number; groups: number[] } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    const gid = /^Gid:\s+(\d+)/m.exec(status)?.[1];
    const groups = (/^Groups:[ \t]*([\d \t]*)$/m.exec(status)?.[1] ?? '')
      .split(/\s+/)
      .filter((g) => g !== '')
      .map(Number);
    return uid === undefined || gid === undefined ? undefined : { uid: Number(uid), gid: Number(gid), groups };
  } catch {
    return undefined; // expected: the agent exited while we looked
  }
}

/** ms per run of `argv` (sequential runs, median). */
export async function timeCommand(argv: readonly string[], runs: number): Promise<number> {
  const [file, ...args] = argv as [string, ...string[]];
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await runOnce(file, args));
  return median(times);
}

/**
 * ms of wall time per run of `argv` with `parallel` runs in flight (`runs` in all): the throughput floor of
 * the primitive on this box (a launch that runs several at once cannot go faster than this per agent).
 */
export async function timeCommandParallel(argv: readonly string[], runs: number, parallel: number): Promise<number> {
  const [file, ...args] = argv as [string, ...string[]];
  let next = 0;
  const t0 = performance.now();
  const worker = async (): Promise<void> => {
    while (next < runs) {
      next += 1;
      await runOnce(file, args);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, worker));
  return (performance.now() - t0) / runs;
}

export interface TmuxPrimitives {
  /** ms per `new-window` through one control-mode client (median while growing to `panes`). */
  readonly windowMs: number;
  /** ms per control-mode round trip (`display-message -p`) with `panes` panes (median). */
  readonly roundTripMs: number;
  /** ms per `list-panes -a` with `panes` panes (median): what a full listing costs. */
  readonly listPanesMs: number;
  /**
   * A task-sized text pasted into one pane among `panes` by the bare client (`load-buffer` of a file written
   * beforehand, then `paste-buffer -p`, sent back to back) → the pane's `/bin/sh` reads it: the floor of a
   * REST task → pane delivery.
   */
  readonly pasteRead?: PasteLatency;
  readonly panes: number;
}

/** Raw paste → read samples in one run (the REST side takes as many). */
export const RAW_PASTE_SAMPLES = 30;

async function measureRawPaste(ctl: RawControl, dir: string, samples: number): Promise<PasteLatency> {
  const fifoPath = join(dir, 'reads');
  const fifo = FifoLines.create(fifoPath, dir);
  try {
    const script = join(dir, 'reader.sh');
    writeFileSync(script, `while IFS= read -r line; do [ -p ${fifoPath} ] && printf '%s\\n' "$line" > ${fifoPath}; done\n`);
    const made = await ctl.run(`new-window -d -P -F "#{pane_id}" -t bench: -- /bin/sh ${script}`);
    const pane = made.lines[0];
    if (!made.ok || pane === undefined) throw new Error('no reader pane');
    await new Promise((resolve) => setTimeout(resolve, 200)); // the reader's shell starts
    const out: number[] = [];
    for (let i = 0; i < samples; i++) {
      const token = `bench-raw-paste-${i}`;
      const file = join(dir, `buf-${i}`);
      writeFileSync(file, `[genswarms] turn t${i} — message 1 from operator:\n${token}\nWhen finished, write your reply.\n`, {
        mode: 0o600,
      });
      const read = fifo.waitFor(token);
      const t0 = performance.now();
      const pasted = Promise.all([ctl.run(`load-buffer -b b${i} ${file}`), ctl.run(`paste-buffer -d -p -b b${i} -t ${pane}`)]);
      out.push((await read) - t0);
      await pasted;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return latencyOf(out);
  } finally {
    fifo.close();
  }
}

/** Raw tmux primitives on a private tmux server with `panes` idle panes. */
export async function measureTmuxPrimitives(tmux: string, panes: number): Promise<TmuxPrimitives> {
  const dir = mkdtempSync(join(tmpdir(), 'gs-bench-tmuxraw-'));
  const sock = join(dir, 'sock');
  const child = spawn(tmux, ['-S', sock, '-f', '/dev/null', '-C', 'new-session', '-A', '-s', 'bench', '--', '/bin/sleep', '100000'], {
    shell: false,
    stdio: ['pipe', 'pipe', 'ignore'],
    env: ENV,
  });
  const ctl = new RawControl(child);
  try {
    await ctl.command('display-message -p "#{pid}"');
    const windows: number[] = [];
    for (let i = 0; i < panes; i++) {
      const t0 = performance.now();
      await ctl.command(`new-window -d -t bench: -- /bin/sleep 100000`);
      windows.push(performance.now() - t0);
    }
    const trips: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await ctl.command('display-message -p "#{pid}"');
      trips.push(performance.now() - t0);
    }
    const lists: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      await ctl.command('list-panes -a -F "#{pane_id} #{pane_pid} #{pane_dead} #{session_name} #{window_name}"');
      lists.push(performance.now() - t0);
    }
    const pasteRead = await measureRawPaste(ctl, dir, RAW_PASTE_SAMPLES);
    return { windowMs: median(windows), roundTripMs: median(trips), listPanesMs: median(lists), pasteRead, panes };
  } finally {
    await new Promise<void>((resolve) => {
      // kill-server gets no %end (the server is gone): wait for the client to exit instead
      const killer = spawn(tmux, ['-S', sock, 'kill-server'], { shell: false, stdio: 'ignore', env: ENV });
      killer.on('error', () => resolve()); // best-effort: the server may be gone already
      killer.on('exit', () => resolve());
    });
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
