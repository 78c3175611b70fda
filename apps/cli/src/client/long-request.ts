/**
 * One swarm-wide request the server answers only once it is done with every agent (start, restart, scale, stop):
 * for a large swarm that takes longer than one request timeout. The request is not bounded by that timeout while
 * the server proves alive (it answers the progress poll, or else its health probe), it is never sent twice, and
 * a request that gets no answer from a live server is `unanswered` (the work goes on server-side; the caller
 * follows the swarm by name). Only a server that answers nothing is `unreachable`.
 */
import { isClientError, type CallArgs, type OperationId } from '@genswarms/client';
import type { CommandDeps } from '../cli/command-module';
import { CliError } from '../cli/exit-codes';
import { sleep } from '../cli/sleep';
import type { AgentStatusView } from '../view/agent-table';
import type { ApiAnswer } from './api-client';
import { failureOf, withNewline } from './respond';

/** How often an unanswered request is looked at (progress, liveness); never more often than the request timeout. */
export const LONG_REQUEST_PROGRESS_MS = 2000;
/** The longest a request is waited for while the server stays alive; then the swarm is followed by name. */
export const LONG_REQUEST_MAX_MS = 30 * 60_000;

export type LongAnswer<Op extends OperationId> = { kind: 'answered'; answer: ApiAnswer<Op> } | { kind: 'unanswered' };

/** One look at the swarm's agents: the list, the swarm not registered (yet, or any more), or a busy server (its health probe answered). */
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
 * Sends `op` once and waits for its answer, calling `onWait` with a look at the swarm's agents every
 * LONG_REQUEST_PROGRESS_MS meanwhile (`--json` prints the answer's text unchanged). `unanswered`: the request
 * failed or ran past LONG_REQUEST_MAX_MS while the server stayed alive. Throws the server's refusal, or
 * `unreachable` when neither the request nor the health probe answers.
 */
export async function requestWhileAlive<Op extends OperationId>(
  deps: CommandDeps,
  op: Op,
  args: CallArgs<Op>,
  opts: { swarm: string; json: boolean; onWait: (poll: AgentPoll) => void },
): Promise<LongAnswer<Op>> {
  const controller = new AbortController();
  const pending: Promise<Settled<ApiAnswer<Op>>> = deps
    .api()
    .call(op, { ...args, signal: controller.signal })
    .then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  const tick = Math.min(LONG_REQUEST_PROGRESS_MS, deps.api().timeoutMs);
  const deadline = Date.now() + LONG_REQUEST_MAX_MS;
  try {
    for (;;) {
      const first = await Promise.race([pending, sleep(tick, deps.ctx.signal).then(() => 'tick' as const)]);
      if (first !== 'tick') {
        if (first.ok) {
          if (opts.json) deps.ctx.stdout.write(withNewline(first.value.text));
          return { kind: 'answered', answer: first.value };
        }
        if (isUnreachable(first.error) && (await isServerAlive(deps))) return { kind: 'unanswered' };
        throw failureOf(deps.ctx, first.error, opts.json);
      }
      if (deps.ctx.signal?.aborted === true || Date.now() >= deadline) return { kind: 'unanswered' };
      opts.onWait(await pollAgents(deps, opts.swarm));
    }
  } finally {
    controller.abort(); // a settled request ignores it; an abandoned one is closed (the work goes on server-side)
  }
}
