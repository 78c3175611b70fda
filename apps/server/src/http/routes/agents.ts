import { z } from 'zod';
import { redactSecrets } from '@genswarms/security';
import { EngineError } from '@genswarms/engine';
import type { RouteModule } from '../route-module';
import { handle, nameParam, NAME_RE, parseBody } from './route-kit';

const TaskBodySchema = z.strictObject({
  task: z.string().min(1).describe('Task text for the agent'),
});

const ScaleBodySchema = z.strictObject({
  // No upper bound here: a valid integer above the swarm's cap is the engine's 400 agent_cap_exceeded
  // (CONTRACT §12.6, §15); invalid_count is only for a missing, string, float or negative count.
  count: z.number().min(0).refine((n) => Number.isInteger(n), 'expected an integer').describe('Wanted number of instances of the base agent'),
});

/** `POST /agents` body: an Agent (CONTRACT §13) plus `connections?`/`incoming?`; the engine validates the rest. */
function agentBody(body: Record<string, unknown>): Record<string, unknown> {
  const name = body['name'];
  if (typeof name !== 'string' || !NAME_RE.test(name)) {
    throw new EngineError('invalid_name', 'name must follow the Name grammar.', { issues: [{ path: 'name', message: 'invalid name' }] });
  }
  return body;
}

function scaleCount(body: unknown): number {
  const parsed = ScaleBodySchema.safeParse(body);
  if (!parsed.success) throw new EngineError('invalid_count', 'count must be a non-negative integer.');
  return parsed.data.count;
}

/** Agents of a swarm (CONTRACT §15): list, add, detail, remove, task, restart, resume, scale. */
export const agentsRoute: RouteModule = {
  name: 'agents',
  endpoints: [
    'GET /api/swarms/:s/agents',
    'POST /api/swarms/:s/agents',
    'GET /api/swarms/:s/agents/:a',
    'DELETE /api/swarms/:s/agents/:a',
    'POST /api/swarms/:s/agents/:a/task',
    'POST /api/swarms/:s/agents/:a/restart',
    'POST /api/swarms/:s/agents/:a/resume',
    'POST /api/swarms/:s/agents/:base/scale',
  ],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    const swarmOf = (req: Parameters<typeof nameParam>[0]): string => nameParam(req, 's', 'swarm');
    const agentOf = (req: Parameters<typeof nameParam>[0]): string => nameParam(req, 'a', 'agent');
    router.get('/api/swarms/:s/agents', handle(async (req) => ({ body: redactSecrets(await engine.listAgents(swarmOf(req))) })));
    router.post(
      '/api/swarms/:s/agents',
      handle(async (req) => {
        const swarm = swarmOf(req);
        return { status: 201, body: await engine.addAgent(swarm, agentBody(req.body as Record<string, unknown>)) };
      }),
    );
    router.get('/api/swarms/:s/agents/:a', handle(async (req) => ({ body: redactSecrets(await engine.getAgent(swarmOf(req), agentOf(req))) })));
    router.delete('/api/swarms/:s/agents/:a', handle(async (req) => ({ body: await engine.removeAgent(swarmOf(req), agentOf(req)) })));
    router.post(
      '/api/swarms/:s/agents/:a/task',
      handle(async (req) => {
        const [swarm, agent] = [swarmOf(req), agentOf(req)];
        const { task } = parseBody(TaskBodySchema, req.body, 'task must be a non-empty string.');
        return { body: await engine.sendTask(swarm, agent, task) };
      }),
    );
    router.post('/api/swarms/:s/agents/:a/restart', handle(async (req) => ({ body: await engine.restartAgent(swarmOf(req), agentOf(req)) })));
    router.post('/api/swarms/:s/agents/:a/resume', handle(async (req) => ({ body: await engine.resumeAgent(swarmOf(req), agentOf(req)) })));
    router.post(
      '/api/swarms/:s/agents/:base/scale',
      handle(async (req) => {
        const [swarm, base] = [swarmOf(req), nameParam(req, 'base', 'agent')];
        return { body: await engine.scaleAgent(swarm, base, scaleCount(req.body)) };
      }),
    );
  },
};
