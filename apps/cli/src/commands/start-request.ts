/**
 * The start request of `genswarms start`. The server answers it once every agent was planned and launched, which
 * takes longer than one request timeout for a large swarm: the request is not bounded by that timeout while
 * the server proves alive (it answers the progress poll, or else its health probe), and a start that gets no
 * answer from a live server is followed by the swarm's name. Only a server that answers nothing is `unreachable`.
 */
import { isClientError, type ResponseOf } from '@genswarms/client';
import type { CommandDeps } from '../cli/command-module';
import { CliError } from '../cli/exit-codes';
import { sleep } from '../cli/sleep';
import { failureOf, withNewline } from '../client/respond';
import type { AgentStatusView } from '../view/agent-table';

/** How often an unanswered start is looked at (progress, liveness); never more often than the request timeout. */
export const START_PROGRESS_MS = 2000;
/** The longest a start request is waited for while the server stays alive; then the swarm is followed by name. */
export const START_REQUEST_MAX_MS = 30 * 60_000;

export type StartAnswer = { kind: 'answered'; body: ResponseOf<'startSwarm'> } | { kind: 'unanswered' };

/** One look at the swarm's agents: the list, the swarm not registered yet, or a busy server (its health probe answered). */
export type AgentPoll = { kind: 'agents'; agents: readonly AgentStatusView[] } | { kind: 'not_yet' } | { kind: 'busy' };

const isUnreachable = (err: unknown): boolean => err instanceof CliError && err.code === 'unreachable';

/** Does the server answer its health probe (within one request timeout)? */
export async function isServerAlive(deps: CommandDeps): Promise<boolean> {
  try {
    await deps.api().call('healthz', {});
    return true;
  } catch {
    return false; // expected: no answer (or an error answer) means not alive; the caller reports unreachable
  }
}

/** Lists the swarm's agents; a timeout with a live server is `busy`; `unreachable` only when the health probe fails too. */
export async function pollAgents(deps: CommandDeps, swarm: string): Promise<AgentPoll> {
  try {
    return { kind: 'agents', agents: (await deps.api().call('listAgents', { params: { s: swarm } })).body.agents };
  } catch (err) {
    if (isClientError(err, 'swarm_not_found')) return { kind: 'not_yet' };
    if (isUnreachable(err) && (await isServerAlive(deps))) return { kind: 'busy' };
    throw failureOf(deps.ctx, err, false);
  }
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * POSTs the start and waits for its answer, calling `onWait` with a look at the agents every START_PROGRESS_MS
 * meanwhile. `unanswered`: the request failed or ran past START_REQUEST_MAX_MS while the server stayed alive (the
 * start goes on server-side). Throws the server's refusal, or `unreachable` when neither request nor probe answers.
 */
export async function requestStart(
  deps: CommandDeps,
  config: unknown,
  swarm: string,
  opts: { json: boolean; onWait: (poll: AgentPoll) => void },
): Promise<StartAnswer> {
  const controller = new AbortController();
  const pending: Promise<Settled<{ body: ResponseOf<'startSwarm'>; text: string }>> = deps
    .api()
    .call('startSwarm', { body: { config }, signal: controller.signal })
    .then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  const tick = Math.min(START_PROGRESS_MS, deps.api().timeoutMs);
  const deadline = Date.now() + START_REQUEST_MAX_MS;
  try {
    for (;;) {
      const first = await Promise.race([pending, sleep(tick, deps.ctx.signal).then(() => 'tick' as const)]);
      if (first !== 'tick') {
        if (first.ok) {
          if (opts.json) deps.ctx.stdout.write(withNewline(first.value.text));
          return { kind: 'answered', body: first.value.body };
        }
        if (isUnreachable(first.error) && (await isServerAlive(deps))) return { kind: 'unanswered' };
        throw failureOf(deps.ctx, first.error, opts.json);
      }
      if (deps.ctx.signal?.aborted === true || Date.now() >= deadline) return { kind: 'unanswered' };
      opts.onWait(await pollAgents(deps, swarm));
    }
  } finally {
    controller.abort(); // a settled request ignores it; an abandoned one is closed (the start goes on server-side)
  }
}
