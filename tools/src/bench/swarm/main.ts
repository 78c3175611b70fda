/**
 * `npm run bench -- [--n 10,100,300,1000] [--backends mock,local,bwrap,tmux,tmux-bwrap] [--turns 50]
 * [--idle-ms 5000] [--list-ms 2000] [--no-primitives] [--cpu-prof <dir>] [--out <file.json>] [--json] [--no-build]
 * [--server-main <main.js>] [--swarms K] [--paste-samples 30] [--ring-ms 5000] [--ring-clients mock|sh] [--ring-tokens 50]`
 * (docs/benchmarks.md). Writes `<out>` (JSON) and the same name with `.md` (the tables).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buildOnce, REPO_ROOT } from '../../build-once/build-once';
import { BENCH_BACKENDS, type BenchBackend } from './backends';
import { DEFAULT_NS, runBench, type BenchOptions } from './bench-swarm';
import { summariseProfileDir } from './profile-summary';
import { formatReport } from './report';
import { DEFAULT_RING_TOKENS } from './ring';

export const DEFAULT_OUT = join(REPO_ROOT, 'tools/bench/results/latest.json');

export interface BenchCli {
  readonly options: BenchOptions;
  readonly out: string;
  readonly json: boolean;
  /** Use the existing apps/server/dist instead of running `tsc -b` first. */
  readonly noBuild: boolean;
  readonly cpuProfDir?: string;
}

function value(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
}

function ints(raw: string, name: string, min: number): number[] {
  const xs = raw.split(',').map((s) => Number(s.trim()));
  if (xs.length === 0 || xs.some((x) => !Number.isInteger(x) || x < min))
    throw new Error(`${name}: expected integers ≥ ${min}, got ${raw}`);
  return xs;
}

/** Parses the flags; throws with a one-line reason on a bad one. */
export function parseBenchArgs(argv: readonly string[]): BenchCli {
  const known = new Set([
    '--server-main',
    '--swarms',
    '--paste-samples',
    '--ring-ms',
    '--ring-clients',
    '--ring-tokens',
    '--n',
    '--backends',
    '--turns',
    '--idle-ms',
    '--list-ms',
    '--no-primitives',
    '--cpu-prof',
    '--out',
    '--json',
    '--no-build',
  ]);
  for (const a of argv) if (a.startsWith('--') && !known.has(a)) throw new Error(`unknown flag ${a}`);
  const backends = (value(argv, '--backends') ?? BENCH_BACKENDS.join(',')).split(',') as BenchBackend[];
  for (const b of backends) if (!(BENCH_BACKENDS as readonly string[]).includes(b)) throw new Error(`unknown backend ${b}`);
  const ringClients = value(argv, '--ring-clients') ?? 'mock';
  if (ringClients !== 'mock' && ringClients !== 'sh') throw new Error(`--ring-clients must be mock or sh`);
  const cpuProf = value(argv, '--cpu-prof');
  const cpuProfDir = cpuProf === undefined ? undefined : resolve(cpuProf);
  return {
    options: {
      ns: value(argv, '--n') === undefined ? DEFAULT_NS : ints(value(argv, '--n') as string, '--n', 1),
      backends,
      turns: ints(value(argv, '--turns') ?? '50', '--turns', 0)[0] as number,
      idleMs: ints(value(argv, '--idle-ms') ?? '5000', '--idle-ms', 0)[0] as number,
      ringMs: ints(value(argv, '--ring-ms') ?? '5000', '--ring-ms', 0)[0] as number,
      ringClients,
      ringTokens: ints(value(argv, '--ring-tokens') ?? String(DEFAULT_RING_TOKENS), '--ring-tokens', 1)[0] as number,
      listSwarmsMs: ints(value(argv, '--list-ms') ?? '2000', '--list-ms', 0)[0] as number,
      primitives: !argv.includes('--no-primitives'),
      swarms: ints(value(argv, '--swarms') ?? '1', '--swarms', 1)[0] as number,
      pasteSamples: ints(value(argv, '--paste-samples') ?? '30', '--paste-samples', 0)[0] as number,
      ...(value(argv, '--server-main') === undefined ? {} : { serverMain: resolve(value(argv, '--server-main') as string) }),
      ...(cpuProfDir === undefined ? {} : { serverNodeFlags: ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] }),
    },
    out: resolve(value(argv, '--out') ?? DEFAULT_OUT),
    json: argv.includes('--json'),
    noBuild: argv.includes('--no-build'),
    ...(cpuProfDir === undefined ? {} : { cpuProfDir }),
  };
}

export async function runBenchCli(argv: readonly string[]): Promise<number> {
  let cli: BenchCli;
  try {
    cli = parseBenchArgs(argv);
  } catch (err) {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const built = cli.noBuild
    ? ({ kind: 'ok' } as const)
    : buildOnce([join(REPO_ROOT, 'apps/server/tsconfig.lib.json'), join(REPO_ROOT, 'apps/agent/tsconfig.lib.json')]);
  if (built.kind === 'failed') {
    process.stderr.write(`bench: build failed\n${built.output.slice(0, 2000)}\n`);
    return 1;
  }
  if (cli.cpuProfDir !== undefined) mkdirSync(cli.cpuProfDir, { recursive: true });
  const partial = `${cli.out.replace(/\.json$/, '')}.partial.json`;
  mkdirSync(dirname(cli.out), { recursive: true });
  const report = await runBench({
    ...cli.options,
    log: (l) => process.stderr.write(`${l}\n`),
    onRun: (runs) => writeFileSync(partial, `${JSON.stringify(runs, null, 2)}\n`),
  });
  const md = formatReport(report);
  mkdirSync(dirname(cli.out), { recursive: true });
  writeFileSync(cli.out, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(cli.out.replace(/\.json$/, '') + '.md', md);
  process.stdout.write(cli.json ? `${JSON.stringify(report)}\n` : md);
  if (cli.cpuProfDir !== undefined)
    process.stderr.write(`server CPU profile (${cli.cpuProfDir}):\n${summariseProfileDir(cli.cpuProfDir)}\n`);
  return 0;
}

/** A scratch results file for runs that must not touch the checked-in one (the smoke spec). */
export function scratchOut(): string {
  return join(mkdtempSync(join(tmpdir(), 'gs-bench-out-')), 'bench.json');
}
