import type { AgentLaunchSpec, LaunchPlan, Runner, RunnerContext, RunnerHandle, SessionHealth, TurnDelivery } from '../port';
import { RunnerError } from '../errors/runner-error';
import { OutputHub } from '../process/output-hub';
import { describePlan, newSessionId } from '../plan/describe';
import { stateDirFor } from '../state/state-dir';
import { writeMockReceipt } from './mock-receipt';

/** Reply used when `backend.opts.replies` is absent or empty. */
export const MOCK_DEFAULT_REPLY = '{{content}}';

/** `backend.opts` of a mock agent, checked at plan (docs/runners.md). */
export function parseMockOpts(
  opts: Readonly<Record<string, unknown>>,
  agent: string,
): { replies: readonly string[]; delayMs: number; failStart: boolean } {
  const replies = opts['replies'] ?? [MOCK_DEFAULT_REPLY];
  const delay = opts['delay_ms'] ?? 0;
  const failStart = opts['fail_start'] ?? false;
  if (typeof failStart !== 'boolean') throw new RunnerError('validation_failed', 'backend.opts.fail_start must be a boolean', { agent });
  if (!Array.isArray(replies) || !replies.every((r): r is string => typeof r === 'string')) {
    throw new RunnerError('validation_failed', 'backend.opts.replies must be a list of strings', { agent });
  }
  if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > 86_400_000) {
    throw new RunnerError('validation_failed', 'backend.opts.delay_ms must be an integer 0..86400000', { agent });
  }
  return { replies: replies.length === 0 ? [MOCK_DEFAULT_REPLY] : replies, delayMs: delay, failStart };
}

/** `mock`: no process. Each delivered turn gets a real receipt (reply.md, then done.json) in the workspace. */
export function createMockRunner(): Runner {
  return { kind: 'mock', plan: planMock, start: startMock };
}

function planMock(spec: AgentLaunchSpec, ctx: RunnerContext): LaunchPlan {
  parseMockOpts(spec.backendOpts, spec.agent);
  return {
    spec,
    sessionId: newSessionId(),
    stateDir: stateDirFor(ctx.home, spec.swarm, spec.agent),
    clientArgv: [],
    env: {},
    mounts: [],
    notices: [],
  };
}

function startMock(plan: LaunchPlan): Promise<RunnerHandle> {
  const { replies, delayMs, failStart } = parseMockOpts(plan.spec.backendOpts, plan.spec.agent);
  // A start failure after a successful plan, for tests of how failures reach the operator.
  if (failStart)
    return Promise.reject(new RunnerError('start_failed', 'the mock agent has backend.opts.fail_start set', { agent: plan.spec.agent }));
  const hub = new OutputHub();
  const timers = new Set<NodeJS.Timeout>();
  let next = 0;
  const reply = (turn: TurnDelivery): void => {
    const template = replies[next % replies.length] ?? MOCK_DEFAULT_REPLY;
    next += 1;
    const text = template.split('{{content}}').join(turn.content);
    writeMockReceipt(plan.spec.workspace, turn.turnId, text).catch((err: unknown) => {
      hub.emitLine('stderr', `mock receipt failed: ${err instanceof Error ? err.message : 'error'}`);
    });
  };
  const handle: RunnerHandle = {
    describe: () => describePlan(plan),
    deliver: (turn) => {
      if (hub.exited) return Promise.reject(new RunnerError('runner_error', 'the mock session is stopped', { agent: plan.spec.agent }));
      const timer = setTimeout(() => {
        timers.delete(timer);
        reply(turn);
      }, delayMs);
      // A scripted reply is not a process: an abandoned mock session must not keep the host alive.
      timer.unref();
      timers.add(timer);
      return Promise.resolve();
    },
    stop: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      hub.emitExit(0, null);
      return Promise.resolve();
    },
    health: (): Promise<SessionHealth> => Promise.resolve(hub.exited ? 'exited' : 'running'),
    onOutput: (listener) => hub.addOutput(listener),
    onExit: (listener) => hub.addExit(listener),
  };
  return Promise.resolve(handle);
}
