/**
 * `npm run bench:agent-cost -- [--n 1,50] [--backends mock,local,bwrap,tmux,tmux-bwrap,docker,tmux-docker]`: what one
 * running agent costs the host per runner (agent-cost.ts), printed as a table and JSON. Asserts nothing; the figures
 * back the runners' host-cost table (docs/benchmarks.md "Host cost per agent").
 */
import { join } from 'node:path';
import { buildOnce, REPO_ROOT } from '../../build-once/build-once';
import { startBenchServer } from '../swarm/bench-server';
import { COST_BACKENDS, inotifyInstancesOf, measureCost, type CostBackend, type CostRow } from './agent-cost';

function flag(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
}

function format(rows: readonly CostRow[]): string {
  const head = '| runner | N | tasks (ours) | tasks (host) | server fds | inotify watches | ptys | cgroups | note |';
  const lines = rows.map((r) => {
    const p = r.perAgent;
    return `| ${r.backend} | ${r.n} | ${p.ourTasks} | ${p.hostTasks} | ${p.serverFds} | ${p.inotifyWatches} | ${p.ptys} | ${p.cgroups} | ${r.error ?? ''} |`;
  });
  return [head, '|---|---|---|---|---|---|---|---|---|', ...lines].join('\n');
}

export async function runAgentCost(argv: readonly string[]): Promise<number> {
  const ns = (flag(argv, '--n') ?? '1,50').split(',').map(Number);
  const backends = (flag(argv, '--backends')?.split(',') ?? COST_BACKENDS) as CostBackend[];
  if (!argv.includes('--no-build')) {
    const built = buildOnce([join(REPO_ROOT, 'apps/server/tsconfig.lib.json'), join(REPO_ROOT, 'apps/agent/tsconfig.lib.json')]);
    if (built.kind === 'failed') throw new Error(`build failed: ${built.output.slice(0, 2000)}`);
  }
  const server = await startBenchServer({ maxAgents: Math.max(...ns, 100) });
  const rows: CostRow[] = [];
  try {
    for (const backend of backends)
      for (const n of ns) {
        const row = await measureCost(server, backend, n);
        process.stderr.write(`${JSON.stringify(row)}\n`);
        rows.push(row);
      }
    process.stdout.write(`${format(rows)}\n\nserver inotify instances: ${inotifyInstancesOf(server.pid)}\n`);
    process.stdout.write(`${JSON.stringify(rows)}\n`);
  } finally {
    await server.stop();
  }
  return rows.some((r) => r.error !== undefined) ? 1 : 0;
}
