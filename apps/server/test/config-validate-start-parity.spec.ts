/**
 * `POST /api/config/validate` runs every plan-time check `POST /api/swarms` runs: for each config start
 * refuses for a config reason, validate answers `valid: false` with the same code, and creates nothing.
 * Real server on port 0 over a real engine (real runners' plans, real SQLite).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { PLAN_ERROR_CODES } from '@genswarms/engine';
import { startEngineServer, type EngineServer } from './support/engine-server';

let s: EngineServer;
beforeAll(async () => {
  // the agent entry outside GENSWARMS_HOME, so a sandbox plan reaches the check each case is about
  s = await startEngineServer({}, { agentEntry: join(__dirname, 'fixtures', 'no-agent.js') });
});
afterAll(async () => {
  await s.close();
});

type Agent = Record<string, unknown>;
const one = (agent: Agent): Record<string, unknown> => ({ name: 'p', agents: [agent] });

/** [start's refusal code, config]: every config here is schema-valid and refused by start. */
const CASES: readonly (readonly [string, (home: string) => Record<string, unknown>])[] = [
  [
    'validation_failed',
    () => ({ name: 'p', agents: [{ name: 'a', backend: 'mock' }], objects: [{ name: 'o', handler: 'Totally.Bogus' }] }),
  ],
  // ssh: options are checked at plan (the string "true" is not a boolean); an unknown host key is a start-time refusal only
  [
    'validation_failed',
    () => one({ name: 'a', backend: { type: 'ssh', host: 'dev@box.example', opts: { key_path: '/k', silently_accept_hosts: 'true' } } }),
  ],
  [
    'unsupported_network',
    () => one({ name: 'a', backend: { type: 'ssh', host: 'dev@box.example', opts: { key_path: '/k' } }, network: 'none' }),
  ],
  // apple_container runs only on macOS with Apple's container CLI: on this Linux host its plan is binary_missing
  ['binary_missing', () => one({ name: 'a', backend: { type: 'apple_container' } })],
  // a store path that does not exist: refused before any nix-store query, so the same code with or without Nix installed
  [
    'nix_path_invalid',
    () => one({ name: 'a', backend: 'bwrap', config: { client_source: 'host_nix', nix_package: '/nix/store/abc-pkg' } }),
  ],
  ['unsupported_network', () => one({ name: 'a', backend: 'local', network: 'isolated' })],
  // a budget on an agent that reaches its LLM past the metering egress relay (network open)
  ['budget_unenforceable', () => one({ name: 'a', backend: 'bwrap', budget: { requests: 1 } })],
  // local has no boundary to hold a limit on any host; bwrap refuses only where the host's cgroups cannot enforce it
  ['limits_unsupported', () => one({ name: 'a', backend: 'local', config: { memory_limit: '64m' } })],
  ['seccomp_unsupported', () => one({ name: 'a', backend: 'local', config: { seccomp: 'default' } })],
  ['binary_missing', () => one({ name: 'a', backend: 'local', client: { command: ['/nonexistent/x'] } })],
  ['binary_missing', () => one({ name: 'a', backend: 'local', client: { command: ['no-such-client-gs'] } })],
  ['endpoint_not_allowed', () => one({ name: 'a', backend: 'bwrap', network: 'isolated', endpoint: 'http://untrusted.example:8080/v1' })],
  ['endpoint_not_configured', () => one({ name: 'a', backend: 'bwrap', network: 'isolated' })],
  ['workspace_outside_roots', () => one({ name: 'a', backend: 'bwrap', workspace: '/' })],
  ['git_not_a_repository', (home) => one({ name: 'a', backend: 'bwrap', workspace: { git: join(home, 'no-such-repository') } })],
  // below the default root <home>/workspaces, but another agent's directory inside GENSWARMS_HOME
  ['unsafe_workspace', (home) => one({ name: 'a', backend: 'bwrap', workspace: join(home, 'workspaces', 'other') })],
  ['unsafe_bind', (home) => one({ name: 'a', backend: 'bwrap', config: { extra_ro_binds: [[home, '/data']] } })],
  // agent_binary_path stands in for the client (installed or not): an undeclared endpoint speaks openai-chat, claude does not
  [
    'client_endpoint_incompatible',
    () =>
      one({ name: 'a', backend: 'local', client: 'claude', endpoint: 'http://127.0.0.1:9/v1', config: { agent_binary_path: '/bin/true' } }),
  ],
  [
    'bypass_requires_opt_in',
    () => one({ name: 'a', backend: 'bwrap', client: { command: ['/bin/sh', '--dangerously-skip-permissions'] } }),
  ],
];

/** `image_missing` needs an engine that answers (without one the image cannot be checked, and start says so). */
const HAS_DOCKER_ENGINE = existsSync('/var/run/docker.sock');
if (HAS_DOCKER_ENGINE) {
  (CASES as (typeof CASES)[number][]).push([
    'image_missing',
    () => one({ name: 'a', backend: { type: 'docker', image: 'genswarms/absent-image:none' }, network: 'none' }),
  ]);
}

/** Plan codes no schema-valid config can reach on this host (the reason each is left out). */
const NOT_REACHABLE_HERE: Readonly<Record<string, string>> = {
  ...(HAS_DOCKER_ENGINE ? {} : { image_missing: 'no docker engine answers on /var/run/docker.sock' }),
  egress_unavailable: 'socat is installed on the test host',
  git_ref_unresolved:
    'needs a repository below a workspace root other than the default one; validate and start refuse it alike in libs/engine/test/engine-git-workspace-refusals.spec.ts',
  invalid_argv: 'the config schema already refuses empty and NUL words',
  launch_too_large: 'the config schema caps every field below the launch cap',
  remote_engine_unsupported: 'every backend type has a runner; only a remote DOCKER_HOST in the server environment is refused',
  remote_engine_insecure:
    "the swarm manager and node engines come from the server's environment (DOCKER_HOST, GENSWARMS_SWARM_NODES), never from a config",
};

describe('config validate refuses every config start refuses at plan time', () => {
  test.each(CASES)('%s (%#)', async (code, make) => {
    const config = make(s.home);
    const started = await request(s.url).post('/api/swarms').send({ config });
    expect(started.status).toBe(400);
    expect(started.body).toMatchObject({ error: code });
    const validated = await request(s.url).post('/api/config/validate').send({ config });
    expect(validated.status).toBe(400);
    expect(validated.body).toMatchObject({ valid: false, error: code });
    expect(existsSync(join(s.home, 'workspaces', 'p'))).toBe(false);
  });

  it('the table covers every plan refusal code of start', () => {
    const covered = new Set([...CASES.map(([code]) => code), ...Object.keys(NOT_REACHABLE_HERE)]);
    for (const code of PLAN_ERROR_CODES) expect([code, covered.has(code)]).toEqual([code, true]);
  });

  it('a config start accepts stays valid', async () => {
    const config = { name: 'ok', agents: [{ name: 'a', backend: 'bwrap', network: 'none' }] };
    const validated = await request(s.url).post('/api/config/validate').send({ config });
    expect(validated.status).toBe(200);
    expect(validated.body).toMatchObject({ valid: true });
    expect(existsSync(join(s.home, 'workspaces', 'ok'))).toBe(false);
  });
});
