/**
 * The sandbox mount escape, end to end through the real server (docs/security.md#10-agent-runners-and-sandboxes "Host paths
 * entering a sandbox"): a swarm with a tmux agent owns `$GENSWARMS_HOME/tmux/tmux.sock`; a second swarm's
 * bwrap agent names that directory, another agent's state dir and the database as skills and runs
 * `tmux -S /skills/tmux/tmux.sock run-shell 'id > <sentinel>'`. Refused at swarm start (`unsafe_bind`)
 * and from a runtime mutation (`forbidden_config_keys`); the sentinel never appears on the host.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import request from 'supertest';
import { mockAgent, startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';

const HAVE = ['/usr/bin/tmux', '/usr/bin/bwrap', '/usr/bin/xargs'].every((b) => existsSync(b));
if (!HAVE) console.warn('SKIPPING the mount-escape e2e: tmux, bwrap or xargs is missing (CI installs them)');
const describeIf = HAVE ? describe : describe.skip;

describeIf('the skills mount escape (real server, real tmux and bwrap)', () => {
  let s: EngineServer;
  let sentinel: string;
  let hostileAgent: Record<string, unknown>;

  beforeAll(async () => {
    s = await startEngineServer();
    sentinel = join(dirname(s.home), 'pwned');
    const script = join(s.configDir, 'esc.sh');
    writeFileSync(script, `#!/bin/sh\n/usr/bin/tmux -S /skills/tmux/tmux.sock run-shell 'id > ${sentinel}'\n`, { mode: 0o755 });
    const tmuxAgent = { name: 't', backend: { type: 'tmux' }, client: { command: ['/usr/bin/sleep', '300'] } };
    await request(s.url)
      .post('/api/swarms')
      .send({ config: { name: 's1', agents: [tmuxAgent] } })
      .expect(201);
    await waitFor(async () => existsSync(join(s.home, 'tmux', 'tmux.sock')), 'the tmux socket');
    const skills = [script, join(s.home, 'tmux'), join(s.home, 'state', 's1'), join(s.home, 'genswarms.db')];
    hostileAgent = { name: 'esc', backend: { type: 'bwrap' }, network: 'none', client: { command: ['/bin/sh', '/skills/esc.sh'] }, skills };
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('a swarm start naming them is refused with unsafe_bind and the path as written; nothing runs', async () => {
    const res = await request(s.url)
      .post('/api/swarms')
      .send({ config: { name: 's2', agents: [hostileAgent] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'unsafe_bind', agent: 'esc', path: join(s.home, 'tmux') });
    expect((await request(s.url).get('/api/swarms/s2')).body.status).not.toBe('running');
    expect(existsSync(sentinel)).toBe(false);
  });

  it('POST /api/swarms/<s>/agents with skills is refused as a host-escape key; nothing runs', async () => {
    await request(s.url)
      .post('/api/swarms')
      .send({ config: { name: 's3', agents: [mockAgent('a')] } })
      .expect(201);
    const res = await request(s.url).post('/api/swarms/s3/agents').send(hostileAgent);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'forbidden_config_keys', keys: ['skills'] });
    expect((await request(s.url).get('/api/swarms/s3')).body.agents.map((a: { name: string }) => a.name)).toEqual(['a']);
    expect(existsSync(sentinel)).toBe(false);
  });

  it('POST /api/swarms/<s>/agents with a workspace inside GENSWARMS_HOME is refused (outside the workspace roots)', async () => {
    const { skills: _skills, ...rest } = hostileAgent;
    const res = await request(s.url)
      .post('/api/swarms/s3/agents')
      .send({ ...rest, name: 'esc2', workspace: join(s.home, 'tmux') });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'workspace_outside_roots', agent: 'esc2', roots: [join(s.home, 'workspaces')] });
    expect(existsSync(sentinel)).toBe(false);
  });
});
