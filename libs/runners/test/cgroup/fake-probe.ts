/** A TrackingProbe over given texts: files by path, a set of writable directories (cgroup detection specs). */
import type { TrackingProbe } from '../../src/lib/cgroup/cgroup-detect';

export interface FakeProbeInput extends Partial<TrackingProbe> {
  readonly files?: Readonly<Record<string, string>>;
  readonly writable?: readonly string[];
}

export function fakeProbe(defaults: { mountinfo: string; procCgroup: string }, over: FakeProbeInput): TrackingProbe {
  const files = over.files ?? {};
  const writable = new Set(over.writable ?? []);
  return {
    mountinfo: over.mountinfo ?? defaults.mountinfo,
    procCgroup: over.procCgroup ?? defaults.procCgroup,
    euid: over.euid ?? 0,
    isWritableDir: (d) => writable.has(d),
    readFile: (f) => files[f],
  };
}
