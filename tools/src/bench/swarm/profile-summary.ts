import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly hitCount?: number;
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
}

export interface ProfileLine {
  readonly fn: string;
  readonly pct: number;
}

/** Self time per function (name + file:line), as % of all samples, highest first. `(idle)` is the idle share. */
export function summariseProfile(profile: CpuProfile, top = 15): { wallS: number; lines: ProfileLine[] } {
  const byFn = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (hits === 0) continue;
    total += hits;
    const where = n.callFrame.url === '' ? '' : ` ${basename(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    const key = `${n.callFrame.functionName || '(anonymous)'}${where}`;
    byFn.set(key, (byFn.get(key) ?? 0) + hits);
  }
  const lines = [...byFn.entries()]
    .map(([fn, hits]) => ({ fn, pct: (hits / Math.max(1, total)) * 100 }))
    .sort((a, b) => b.pct - a.pct)
    .slice(0, top);
  return { wallS: (profile.endTime - profile.startTime) / 1e6, lines };
}

/** Summaries of every `.cpuprofile` in `dir`, as text. */
export function summariseProfileDir(dir: string, top = 15): string {
  const out: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.cpuprofile'))) {
    const s = summariseProfile(JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile, top);
    out.push(`${name}: ${s.wallS.toFixed(1)} s wall`, ...s.lines.map((l) => `  ${l.pct.toFixed(1).padStart(5)} %  ${l.fn}`));
  }
  return out.join('\n');
}
