/**
 * The inverse of `expandAgentCounts`, for configs written out (the snapshot): a run of agents `w_1 … w_k` (k ≥ 2)
 * equal but for their names is written back as `{ name: w, count: k }`, and the edges they stand in as edges naming
 * `w`. A fold is kept only when expanding it gives back the same agents and the same edges and the schema accepts
 * it; anything else stays written out (never a config that means something else).
 */
import { SwarmConfigSchema } from './swarm-schema';
import { expandAgentCounts } from './agent-count';

type Agent = { readonly name: string; readonly [k: string]: unknown };
type Edge = readonly [string, string] | { readonly from: string; readonly to: string };
type Config = { readonly agents: readonly Agent[]; readonly objects?: readonly { name: string }[]; readonly topology?: readonly Edge[] };

interface Run {
  readonly base: string;
  readonly start: number;
  readonly count: number;
}

const pairOf = (e: Edge): [string, string] => (Array.isArray(e) ? [e[0], e[1]] : [(e as { from: string }).from, (e as { to: string }).to]);

function fieldsKey(a: Agent): string | undefined {
  if (Object.hasOwn(a, 'count')) return undefined;
  const { name: _name, ...fields } = a;
  return JSON.stringify(fields);
}

/** Runs of `base_1, base_2, …` in order with equal fields, whose base names nothing else. */
function findRuns(config: Config): Run[] {
  const taken = new Set([...config.agents.map((a) => a.name), ...(config.objects ?? []).map((o) => o.name)]);
  const runs: Run[] = [];
  for (let i = 0; i < config.agents.length; i++) {
    const first = config.agents[i]!;
    if (!first.name.endsWith('_1')) continue;
    const base = first.name.slice(0, -2);
    const key = fieldsKey(first);
    if (base === '' || taken.has(base) || key === undefined) continue;
    let k = 1;
    while (i + k < config.agents.length) {
      const next = config.agents[i + k]!;
      if (next.name !== `${base}_${k + 1}` || fieldsKey(next) !== key) break;
      k++;
    }
    if (k >= 2) runs.push({ base, start: i, count: k });
    i += k - 1;
  }
  return runs;
}

function applyRuns(config: Config, runs: readonly Run[]): Config {
  const groupOf = new Map<string, string>();
  const starts = new Map(runs.map((r) => [r.start, r]));
  const agents: Agent[] = [];
  for (let i = 0; i < config.agents.length; i++) {
    const run = starts.get(i);
    if (run === undefined) {
      agents.push(config.agents[i]!);
      continue;
    }
    for (let j = 0; j < run.count; j++) groupOf.set(config.agents[i + j]!.name, run.base);
    agents.push({ ...config.agents[i]!, name: run.base, count: run.count });
    i += run.count - 1;
  }
  if (config.topology === undefined) return { ...config, agents };
  const seen = new Set<string>();
  const topology: [string, string][] = [];
  for (const e of config.topology) {
    const [f, t] = pairOf(e).map((n) => groupOf.get(n) ?? n) as [string, string];
    const key = `${f}\0${t}`;
    if (!seen.has(key)) topology.push([f, t]);
    seen.add(key);
  }
  return { ...config, agents, topology };
}

const edgeBag = (edges: readonly Edge[] | undefined): string =>
  (edges ?? [])
    .map((e) => pairOf(e).join('\0'))
    .sort()
    .join('\n');

function means(folded: Config, original: Config): boolean {
  if (!SwarmConfigSchema.safeParse(folded).success) return false;
  const back = expandAgentCounts(folded as never) as Config;
  return JSON.stringify(back.agents) === JSON.stringify(original.agents) && edgeBag(back.topology) === edgeBag(original.topology);
}

/** `config` with its runs of equal instances written as counts, when that means the same swarm; else `config`. */
export function foldAgentCounts<C>(config: C): C {
  const c = config as unknown as Config;
  if (typeof c !== 'object' || c === null || !Array.isArray(c.agents)) return config;
  const runs = findRuns(c);
  if (runs.length === 0) return config;
  const all = applyRuns(c, runs);
  if (means(all, c)) return all as unknown as C;
  // an edge names some instances only: fold the runs no edge touches
  const touched = new Set((c.topology ?? []).flatMap(pairOf));
  const quiet = runs.filter((r) => !c.agents.slice(r.start, r.start + r.count).some((a) => touched.has(a.name)));
  const some = quiet.length === 0 ? undefined : applyRuns(c, quiet);
  return some !== undefined && means(some, c) ? (some as unknown as C) : config;
}
