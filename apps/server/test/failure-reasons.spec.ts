/**
 * Every start/agent failure keeps its reason — a code, one sentence an operator acts
 * on and its detail fields — in the event, in the server log and in the API answer; bad input is a 400,
 * never a 500. Real server on port 0 over a real engine (real runner plans, real tmux, real dockerd
 * when one answers).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { startEngineServer, waitFor, type EngineServer } from './support/engine-server';

const HAS_DOCKER = existsSync('/var/run/docker.sock');
const TEST_IMAGE = 'genswarms/test-agent:latest';
const CLIENT_PATH = '/usr/local/bin:/usr/bin:/bin';
const HAS_CODEX = CLIENT_PATH.split(':').some((d) => existsSync(join(d, 'codex')));

let s: EngineServer;
const logLines: Array<{ message: string; meta: Record<string, unknown> }> = [];
beforeAll(async () => {
  s = await startEngineServer(
    {},
    { agentEntry: join(__dirname, 'fixtures', 'no-agent.js'), log: { error: (message, meta) => logLines.push({ message, meta }) } },
  );
});
afterAll(async () => {
  await s.close();
});

async function eventsOf(swarm: string, type: string): Promise<Array<Record<string, unknown>>> {
  return (await request(s.url).get(`/api/events?swarm=${swarm}&event_type=${type}`)).body.events as Array<Record<string, unknown>>;
}

/** A refused start: 400 with code + sentence + details, one swarm_start_failed event and one log line saying the same. */
async function expectRefusedEverywhere(swarm: string, agent: Record<string, unknown>, code: string, message: string): Promise<void> {
  const res = await request(s.url)
    .post('/api/swarms')
    .send({ config: { name: swarm, agents: [agent] } });
  expect([res.status, res.body.error, res.body.agent, res.body.message]).toEqual([400, code, agent['name'], message]);
  const [event] = await eventsOf(swarm, 'swarm_start_failed');
  expect(event?.['message']).toBe(`Swarm ${swarm} was not started: ${String(agent['name'])}: ${code}: ${message}`);
  expect(event?.['metadata']).toMatchObject({ error: code, message, agent: agent['name'] });
  const line = logLines.find((l) => l.message === 'swarm_start_failed' && l.meta['swarm'] === swarm);
  expect(line?.meta).toMatchObject({ error: code, explanation: message, agent: agent['name'] });
  expect(existsSync(join(s.home, 'workspaces', swarm))).toBe(false);
}

describe('a failure keeps its reason in the answer, the event and the log', () => {
  it('local agent whose command does not exist: 400 binary_missing (never 500), naming the file and what to do', async () => {
    await expectRefusedEverywhere(
      'fl1',
      { name: 'a', backend: 'local', client: { command: ['/nonexistent/x'] } },
      'binary_missing',
      '/nonexistent/x is missing or not an executable file; install it there or point client.command at an executable',
    );
  });

  it('tmux agent whose client is not installed: 400 binary_missing naming the PATH searched', async () => {
    await expectRefusedEverywhere(
      'fl2',
      { name: 'a', backend: { type: 'tmux', runner: 'none' }, client: { command: ['no-such-client-gs'] } },
      'binary_missing',
      `no-such-client-gs not found on PATH (${CLIENT_PATH}); install it or set client.command`,
    );
    const res = await request(s.url)
      .post('/api/swarms')
      .send({
        config: {
          name: 'fl2',
          agents: [{ name: 'a', backend: { type: 'tmux', runner: 'none' }, client: { command: ['no-such-client-gs'] } }],
        },
      });
    expect(res.body).toMatchObject({ binary: 'no-such-client-gs', search_path: CLIENT_PATH });
  });

  (HAS_CODEX ? it.skip : it)('tmux agent with client codex and no codex installed: the sentence of the issue', async () => {
    await expectRefusedEverywhere(
      'fl5',
      { name: 'a', backend: { type: 'tmux', runner: 'none' }, client: 'codex' },
      'binary_missing',
      `codex not found on PATH (${CLIENT_PATH}); install it or set client.command`,
    );
  });

  (HAS_DOCKER ? it : it.skip)('docker agent whose image is missing: 400 image_missing with the command that builds it', async () => {
    await expectRefusedEverywhere(
      'fl3',
      { name: 'a', backend: { type: 'docker', image: 'genswarms/absent-image:none' }, network: 'none' },
      'image_missing',
      'image genswarms/absent-image:none is not present in the local Docker engine; build it with: genswarms image build --tag genswarms/absent-image:none',
    );
  });

  (HAS_DOCKER ? it : it.skip)(
    'docker agent the engine cannot start: failed, with the engine’s reason in event, log and status',
    async () => {
      const agent = { name: 'a', backend: { type: 'docker', image: TEST_IMAGE }, network: 'no-such-network-gs' };
      await request(s.url)
        .post('/api/swarms')
        .send({ config: { name: 'fl4', agents: [agent] } })
        .expect(201);
      const status = await waitFor(async () => {
        const body = (await request(s.url).get('/api/swarms/fl4/agents/a')).body as Record<string, unknown>;
        return body['state'] === 'failed' ? body : undefined;
      }, 'agent failed');
      const failure = status['failure'] as { code: string; message: string; details: Record<string, unknown> };
      expect(failure.code).toBe('start_failed');
      expect(failure.message).toMatch(
        /^the docker engine could not start container gs-fl4-a \(image genswarms\/test-agent:latest\): .*no-such-network-gs.*; check the engine \(docker info\) and the image, then restart the agent$/,
      );
      expect(failure.details).toMatchObject({ container: 'gs-fl4-a', image: TEST_IMAGE });
      const [event] = await eventsOf('fl4', 'agent_failed');
      expect(event?.['message']).toBe(`Agent a failed: start_failed: ${failure.message}`);
      expect(event?.['metadata']).toMatchObject({ reason: 'start_failed', message: failure.message, image: TEST_IMAGE });
      expect(logLines.find((l) => l.message === 'agent_failed' && l.meta['swarm'] === 'fl4')?.meta).toMatchObject({
        reason: 'start_failed',
        explanation: failure.message,
      });
      await request(s.url).delete('/api/swarms/fl4').expect(200);
    },
  );
});
