/** Swarm-level operations: start (the gate, then plans, then spawns), validate, stop (and purge), restart. */
import { gateStart, NAME_RE, type ConfigSummary } from '@genswarms/ir-gate';
import type { LaunchPlan } from '@genswarms/runners';
import { EngineError } from '../errors/engine-error';
import { forEachBounded, STARTING_CONCURRENCY } from './bounded';
import { loadStartInput, nameOfInput, type StartInput } from './config-input';
import type { Ports } from './engine-context';
import { assertName, toOverlayEvents } from './helpers';
import { launchAgent, planAgentOnly, planAll, startObjects } from './launch';
import { markRunning, stopRuntime } from './lifecycle';
import { purgeSwarmFiles, releaseAgentIds } from './purge';
import { recordRefusedStart } from './refused-start';
import { SwarmRuntime } from './swarm-runtime';

type GatePorts = Ports<'store' | 'handlers'>;

/** A config the start gate passed. */
type GatedConfig = Extract<ReturnType<typeof gateStart>, { kind: 'ok' }>;

async function gateConfig(ctx: GatePorts, value: unknown, baseDir: string): Promise<GatedConfig> {
  const name = nameOfInput(value);
  const overlay = name !== null && NAME_RE.test(name) ? toOverlayEvents(await ctx.store.listOverlay(name)) : [];
  const gate = gateStart(value, { baseDir, handlers: ctx.handlers.names(), overlayEvents: overlay });
  if (gate.kind === 'refused') {
    const { kind: _k, error, message, ...details } = gate;
    throw new EngineError(error, message, details);
  }
  return gate;
}

/** The gate: schema → IR → validate → stored overlay → runner plan for every agent → spawn. */
type StartPorts = Ports<
  'store' | 'events' | 'pushes' | 'clock' | 'handlers' | 'paths' | 'runtimes' | 'runtimeDeps' | 'launchSlots' | 'limits'
>;

export async function startSwarm(ctx: StartPorts, input: StartInput): Promise<{ status: 'created'; swarm_name: string }> {
  const { value, baseDir } = await loadStartInput(input, ctx.paths.configDir);
  const gate = await gateConfig(ctx, value, baseDir);
  if (ctx.runtimes.has(gate.config.name)) throw new EngineError('already_exists', `Swarm ${gate.config.name} is already running.`);
  // the host's limits are charged before anything is planned or created (host_limit), and held until launched
  const release = ctx.limits.host.claim(gate.effective.agents);
  try {
    return await launchGated(ctx, gate, baseDir);
  } finally {
    release();
  }
}

/** Plans every agent of a gated config, then creates and launches (startSwarm holds the host claim meanwhile). */
async function launchGated(ctx: StartPorts, gate: GatedConfig, baseDir: string): Promise<{ status: 'created'; swarm_name: string }> {
  const rt = new SwarmRuntime(ctx.runtimeDeps(), gate.config.name, gate.state, gate.config, baseDir);
  rt.noteScaleBases(await ctx.store.listOverlay(rt.swarm));
  const plans = await planAll(rt, ctx.paths.home, gate.effective.agents).catch(async (e: unknown) => {
    await recordRefusedStart(ctx.events, rt.swarm, e);
    throw e;
  });
  ctx.runtimes.add(rt);
  await ctx.store.upsertSwarm({
    name: rt.swarm,
    config: gate.config,
    baseDir,
    status: 'starting',
    startedAt: rt.startedAt,
    stoppedAt: null,
  });
  await startObjects(rt, ctx.handlers, gate.effective.objects ?? []);
  const launch = (plan: LaunchPlan): Promise<unknown> => launchAgent(rt, plan, null, ctx.launchSlots);
  await forEachBounded([...plans.values()], STARTING_CONCURRENCY, async (plan) => void (await launch(plan)));
  await markRunning(ctx, rt);
  return { status: 'created', swarm_name: rt.swarm };
}

/**
 * Every plan-time check `startSwarm` runs (schema, IR, handlers, stored overlay, network matrix, the
 * runner plan of every agent), without starting or creating anything: `valid` means start will not
 * refuse the config for a config reason. Throws the EngineError start would.
 */
export async function validateConfig(
  ctx: Ports<'store' | 'handlers' | 'paths' | 'runtimeDeps'>,
  value: unknown,
  baseDir: string,
): Promise<ConfigSummary> {
  const gate = await gateConfig(ctx, value, baseDir);
  const rt = new SwarmRuntime(ctx.runtimeDeps(), gate.config.name, gate.state, gate.config, baseDir);
  rt.previewIdentities();
  for (const agent of gate.effective.agents) await planAgentOnly(rt, ctx.paths.home, agent);
  return gate.summary;
}

/** Stops a swarm (inbox dropped with one `inbox_dropped`); `purge` also deletes its data and default dirs. */
export async function stopSwarm(
  ctx: Ports<'store' | 'events' | 'pushes' | 'clock' | 'paths' | 'runtimes'>,
  swarm: string,
  opts: { purge?: boolean },
): Promise<{ status: 'stopped' | 'purged'; swarm_name: string }> {
  assertName('swarm', swarm);
  const rt = ctx.runtimes.get(swarm);
  const row = await ctx.store.getSwarm(swarm);
  if (rt === undefined && row === null) throw new EngineError('swarm_not_found', `No swarm named ${swarm}.`);
  if (rt !== undefined) await stopRuntime(ctx, rt);
  if (opts.purge === true) {
    // files first: purge reads the named workspaces from the store, and a failed purge can be retried
    await purgeSwarmFiles(ctx, swarm, rt?.seedConfig);
    await releaseAgentIds(ctx.store, ctx.paths.home, swarm, ctx.clock.now().toISOString());
    await ctx.store.deleteSwarmData(swarm, { purge: true });
    return { status: 'purged', swarm_name: swarm };
  }
  return { status: 'stopped', swarm_name: swarm };
}

/** Stop then start from the stored seed config (+ overlay); `deleteData` first removes events, messages, turns and default dirs. */
export async function restartSwarm(
  ctx: Parameters<typeof startSwarm>[0],
  swarm: string,
  opts: { deleteData?: boolean },
): Promise<{ status: 'restarted'; swarm_name: string; delete_data: boolean }> {
  assertName('swarm', swarm);
  const row = await ctx.store.getSwarm(swarm);
  if (row === null) throw new EngineError('swarm_not_found', `No swarm named ${swarm}.`);
  const rt = ctx.runtimes.get(swarm);
  if (rt !== undefined) await stopRuntime(ctx, rt);
  if (opts.deleteData === true) {
    await purgeSwarmFiles(ctx, swarm, row.config);
    await ctx.store.deleteSwarmData(swarm, { purge: false });
  }
  await startSwarm(ctx, { config: row.config });
  return { status: 'restarted', swarm_name: swarm, delete_data: opts.deleteData === true };
}
