import { performance } from 'node:perf_hooks';
import type fc from 'fast-check';

/** One fuzz target: an input generator and the real code path that input goes through. */
export interface FuzzTarget<T> {
  /** Kebab-case; names the results file and the regressions folder (tools/fuzz/regressions/<name>/). */
  readonly name: string;
  readonly arbitrary: fc.Arbitrary<T>;
  /** Runs one input through the real code path; throws (or rejects) when a criterion fails. */
  check(input: T): void | Promise<void>;
}

/** Describes a thrown value in one bounded line (a failure report; never a whole input). */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.replace(/\s+/g, ' ');
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/**
 * Uncaught exceptions and unhandled rejections seen while a run listens (each one a failure). Under jest the
 * runner's own handlers see them first and fail the spec (so the target fails either way); outside jest
 * they are attributed to the input that was running and shrunk like any failure.
 */
export class StrayErrors {
  private readonly seen: string[] = [];
  private readonly onRejection = (reason: unknown): void => void this.seen.push(`unhandled rejection: ${describeError(reason)}`);
  private readonly onException = (error: unknown): void => void this.seen.push(`uncaught exception: ${describeError(error)}`);

  listen(): void {
    process.on('unhandledRejection', this.onRejection);
    process.on('uncaughtException', this.onException);
  }

  stop(): void {
    process.off('unhandledRejection', this.onRejection);
    process.off('uncaughtException', this.onException);
  }

  /** The first stray since the last call, if any (and forgets them all). */
  take(): string | undefined {
    return this.seen.splice(0).at(0);
  }
}

/** What one input cost: wall time and this process's CPU time (user + system), in ms. */
export interface InputCost {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/**
 * Runs one input under two per-input limits: `hangMs` of CPU time of this process (work: a loop or a
 * super-linear parse, caught when it returns) and `wallMs` of wall time (a wait that never ends, caught by
 * a timer). CPU time, not wall time, carries the tight limit because the machine runs other jobs: its wall
 * time for the same work varies several-fold with the load. Also rejects when `check` throws, or when an
 * uncaught exception or unhandled rejection surfaced by the next macrotask.
 */
export async function runOneInput<T>(
  target: FuzzTarget<T>,
  input: T,
  hangMs: number,
  strays: StrayErrors,
  wallMs = hangMs * 10,
): Promise<InputCost> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: no answer within ${wallMs} ms`)), wallMs);
  });
  try {
    await Promise.race([Promise.resolve().then(() => target.check(input)), hang]);
  } finally {
    clearTimeout(timer);
  }
  const used = process.cpuUsage(cpu);
  const cost = { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
  await new Promise<void>((resolve) => setImmediate(resolve)); // let a pending rejection report itself
  const stray = strays.take();
  if (stray !== undefined) throw new Error(stray);
  if (cost.cpuMs >= hangMs) throw new Error(`hang: the input took ${Math.round(cost.cpuMs)} ms of CPU (limit ${hangMs} ms)`);
  return cost;
}
