/**
 * The walk of one task from its POST (`Engine.sendTask`) to the agent's inbox, measured on a real engine, real
 * SQLite and the real mock runner, in two ways:
 *
 * 1. The spine. An async_hooks `init` hook records the V8 stack (`Error.stackTraceLimit = Infinity`, async frames
 *    included) of every promise made during the walk, with the promise that triggered it. Following those
 *    triggers back from the inbox file's write gives every synchronous stretch between two awaits that led to it,
 *    back to the POST. In each of those stacks no engine source file may appear in more than two separate runs
 *    of consecutive frames: a file entered, left for another, and entered again through a call made from that
 *    other file is a callback, and a third entry would be a ping-pong.
 * 2. One-way calls. For the same walk, every method and getter of the classes a turn goes through (the swarm
 *    runtime, the session, its effects port, the turn runner) is wrapped to record its caller's stack when
 *    entered. Adjacent engine frames give caller → callee file edges; no two engine files may call each other
 *    both ways. This is what the split of the session into a state machine, an effects port and a shell buys:
 *    before it the turn runner read the session's getters (`host.workspace`, `host.now()`, …) while the
 *    session ran the turn runner, so `turn-runner.ts` and `agent-session.ts` called each other.
 *
 * The wrappers only record; they call the original. Only what is causally downstream of this POST counts (the
 * outbox poll and other timers that run meanwhile are not part of the walk).
 */
import { createHook, executionAsyncId } from 'node:async_hooks';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunnerHandle, RunnerRegistry } from '@genswarms/runners';
import { makeHarness, mockAgent, waitFor, type Harness } from './harness';

const ENGINE_SRC = `${path.resolve(__dirname, '../src/lib')}${path.sep}`;
const THIS_FILE = __filename;
/** The frame of this spec that starts the walk; a chain reaching it is downstream of the POST. */
const POST_MARK = 'postTheTask';

/** The engine source file of each frame of a V8 stack, innermost first; null for any other frame (a breaker). */
function framesOf(stack: string): (string | null)[] {
  const out: (string | null)[] = [];
  for (const line of stack.split('\n').slice(1)) {
    const m = /\(?(\/[^():]+):\d+:\d+\)?$/.exec(line.trim());
    const file = m?.[1];
    if (file === THIS_FILE) continue; // the probe's own wrappers are not a frame of the walk
    out.push(file?.startsWith(ENGINE_SRC) === true ? path.relative(ENGINE_SRC, file) : null);
  }
  return out;
}

/** Per engine file: how many separate runs of consecutive frames it has in one stack. */
function runsPerFile(frames: readonly (string | null)[]): Map<string, number> {
  const runs = new Map<string, number>();
  let prev: string | null = null;
  for (const f of frames) {
    if (f !== null && f !== prev) runs.set(f, (runs.get(f) ?? 0) + 1);
    prev = f;
  }
  return runs;
}

/** caller → callee edges between different engine files that are adjacent in a stack. */
function edgesOf(frames: readonly (string | null)[]): string[] {
  const edges: string[] = [];
  for (let i = 0; i + 1 < frames.length; i++) {
    const callee = frames[i];
    const caller = frames[i + 1];
    if (callee !== null && caller !== null && callee !== caller && callee !== undefined && caller !== undefined)
      edges.push(`${caller} -> ${callee}`);
  }
  return edges;
}

interface Probe {
  /** Stacks of every promise made downstream of the POST, by async id. */
  readonly inits: Map<number, { readonly trigger: number; readonly stack: string }>;
  /** The causal chain of the current execution: its stack, then the stacks of the promises that led to it. */
  chain(): string[];
}

function makeProbe(): Probe & { enable(): void; disable(): void } {
  const inits = new Map<number, { trigger: number; stack: string }>();
  const hook = createHook({
    init(id, type, trigger) {
      if (type === 'PROMISE') inits.set(id, { trigger, stack: new Error().stack ?? '' });
    },
  });
  return {
    inits,
    chain() {
      const out = [new Error().stack ?? ''];
      for (let id = executionAsyncId(), hops = 0; hops < 10_000; hops++) {
        const r = inits.get(id);
        if (r === undefined) break;
        out.push(r.stack);
        id = r.trigger;
      }
      return out;
    },
    enable: () => void hook.enable(),
    disable: () => void hook.disable(),
  };
}

/** The engine source file that declares `class <name>` (the file a wrapped method's frames belong to). */
function fileOfClass(name: string): string {
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const decl = new RegExp(`^(export )?(abstract )?class ${name}\\b`, 'm');
  const file = walk(ENGINE_SRC).find((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && decl.test(fs.readFileSync(f, 'utf8')));
  if (file === undefined) throw new Error(`no engine file declares class ${name}`);
  return path.relative(ENGINE_SRC, file);
}

/** Wraps every own method and getter of `proto` so an entry records its caller's stack; returns the undo. */
function recordEntries(proto: object, record: () => void): () => void {
  const undo: (() => void)[] = [];
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === 'constructor') continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (d === undefined || d.configurable !== true) continue;
    const wrapped: PropertyDescriptor = { ...d };
    if (typeof d.get === 'function') {
      const get = d.get;
      wrapped.get = function (this: unknown) {
        record();
        return get.call(this) as unknown;
      };
    } else if (typeof d.value === 'function') {
      const fn = d.value as (...args: unknown[]) => unknown;
      wrapped.value = function (this: unknown, ...args: unknown[]) {
        record();
        return fn.apply(this, args);
      };
    } else continue;
    Object.defineProperty(proto, key, wrapped);
    undo.push(() => Object.defineProperty(proto, key, d));
  }
  return () => undo.forEach((u) => u());
}

/** Every prototype of `value`'s class chain up to Object. */
function protoChain(value: object): object[] {
  const out: object[] = [];
  for (
    let p = Object.getPrototypeOf(value) as object | null;
    p !== null && p !== Object.prototype;
    p = Object.getPrototypeOf(p) as object | null
  )
    out.push(p);
  return out;
}

interface Walk {
  /** Every promise made during the walk, by async id (stack and trigger). */
  readonly inits: Probe['inits'];
  /** Each entry into a wrapped method or getter: the file it is declared in, and the causal chain that led there. */
  readonly entries: readonly { readonly callee: string; readonly chain: readonly string[] }[];
}

/**
 * Starts `config`, posts a task to `agent` and records the walk until the runner hands a turn to `until` (the
 * real mock runner; its delivery comes right after the inbox file is written).
 */
async function walkTask(h: Harness, config: { name: string }, agent: string, until: string): Promise<Walk> {
  Error.stackTraceLimit = Infinity;
  const engine = h.engine;
  await engine.startSwarm({ config });
  const rt = engine.swarms.running(config.name);
  const session = rt.session(agent);
  if (session === undefined) throw new Error(`no session ${agent}`);
  const effects = (session as unknown as { effects?: { outbox?: object } }).effects;
  const targets = [rt, session, session.turns, effects, effects?.outbox].filter((t): t is object => t !== undefined);
  const probe = makeProbe();
  const entries: { callee: string; chain: string[] }[] = [];
  let walking = false;
  const undo = [...new Set(targets.flatMap(protoChain))].map((proto) => {
    const callee = fileOfClass((proto as { constructor: { name: string } }).constructor.name);
    return recordEntries(proto, () => {
      if (!walking) return;
      const chain = probe.chain();
      if (chain.some((s) => s.includes(POST_MARK))) entries.push({ callee, chain });
    });
  });
  probe.enable();
  try {
    walking = true;
    await (async function postTheTask() {
      await engine.sendTask(config.name, agent, 'hello');
    })();
    await waitFor(async () => deliveredTo.has(until), `the delivery of a turn to ${until}`);
  } finally {
    walking = false;
    probe.disable();
    undo.forEach((u) => u());
  }
  return { inits: probe.inits, entries };
}

/** Agents that were handed a turn (by the wrapped mock runner). */
const deliveredTo = new Set<string>();

/** The real mock runner, its handles' deliveries noted in `deliveredTo`. */
function noteDeliveries(real: RunnerRegistry): RunnerRegistry {
  return Object.assign(Object.create(real) as RunnerRegistry, {
    get: (kind: Parameters<RunnerRegistry['get']>[0]) => {
      const runner = real.get(kind);
      return Object.assign(Object.create(runner) as typeof runner, {
        start: async (...args: Parameters<typeof runner.start>) => {
          const handle: RunnerHandle = await runner.start(...args);
          const agent = args[0].spec.agent;
          return Object.assign(Object.create(handle) as RunnerHandle, {
            deliver: (d: Parameters<RunnerHandle['deliver']>[0]) => {
              deliveredTo.add(agent);
              return handle.deliver(d);
            },
          });
        },
      });
    },
  });
}

/** caller → callee file pairs that call each other both ways over the walk. */
function twoWayCalls(walk: Walk): string[] {
  const edges = new Set(
    walk.entries.flatMap(({ callee, chain }) => {
      const caller = framesOf(chain[0] ?? '')[0];
      const entry = caller !== null && caller !== undefined && caller !== callee ? [`${caller} -> ${callee}`] : [];
      return [...entry, ...chain.flatMap((s) => edgesOf(framesOf(s)))];
    }),
  );
  return [...edges].filter((e) => {
    const [caller, callee] = e.split(' -> ');
    return caller !== undefined && callee !== undefined && caller < callee && edges.has(`${callee} -> ${caller}`);
  });
}

describe('a task walks from its POST to the inbox crossing each engine file at most twice', () => {
  let h: Harness | undefined;
  beforeEach(async () => {
    deliveredTo.clear();
    h = await makeHarness({ runners: noteDeliveries });
  });
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('has no callback between engine files and no file entered three times on the way to the inbox', async () => {
    const walk = await walkTask(h as Harness, { name: 'walk', agents: [mockAgent('a')] } as { name: string }, 'a', 'a');
    // the spine: the stacks that led to the inbox file's write, back to the POST
    const write = [...walk.inits.values()].find((r) => r.stack.includes(`${path.sep}inbox-file.ts:`));
    expect(write).toBeDefined();
    const spine: string[] = [];
    for (let r = write, hops = 0; r !== undefined && hops < 10_000; r = walk.inits.get(r.trigger), hops++) spine.push(r.stack);
    expect(spine.some((s) => s.includes(POST_MARK))).toBe(true);
    const crowded = spine.flatMap((s) => [...runsPerFile(framesOf(s))].filter(([, n]) => n > 2).map(([f, n]) => `${f} ×${n}`));
    expect(crowded).toEqual([]);
    expect(walk.entries.length).toBeGreaterThan(0);
    expect(twoWayCalls(walk)).toEqual([]);
  });

  it("has no callback between engine files through the whole turn, its reply routed into the next agent's inbox", async () => {
    const reply = 'done\n<<SWARM_MSG:TO=b:START>>\nyour turn\n<<SWARM_MSG:END>>';
    const config = { name: 'relay', agents: [mockAgent('a', [reply]), mockAgent('b')], topology: [['a', 'b']] };
    const walk = await walkTask(h as Harness, config, 'a', 'b');
    expect(walk.entries.length).toBeGreaterThan(0);
    expect(twoWayCalls(walk)).toEqual([]);
  });
});
