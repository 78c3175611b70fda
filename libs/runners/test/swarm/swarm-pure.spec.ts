/** The swarm backend without an engine: plan refusals, the engine addresses, the node map, the service body. */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerContext } from '../../src/index';
import { RunnerError } from '../../src/index';
import { loadSwarmNodes, parseEngineEndpoint, parseSwarmNodes } from '../../src/lib/swarm/swarm-engine';
import { buildServiceSpec, swarmNamesFor } from '../../src/lib/swarm/service-spec';
import { planSwarmLaunch } from '../../src/lib/swarm/swarm-plan';
import { makeCtx, makeDirs, type TestDirs } from '../docker/docker-support';
import { makeSwarmSpec } from './swarm-support';
import { codeOf } from '@genswarms/test-kit';

const TLS = { ca: '/certs/ca.pem', cert: '/certs/cert.pem', key: '/certs/key.pem' };

describe('swarm engine addresses', () => {
  test.each([
    [undefined, { kind: 'socket', path: '/var/run/docker.sock' }],
    [{ host: 'unix:///var/run/gs-node2.sock' }, { kind: 'socket', path: '/var/run/gs-node2.sock' }],
    [
      { host: 'tcp://10.0.0.5:2376', tls: TLS },
      { kind: 'tls', host: '10.0.0.5', port: 2376, tls: TLS },
    ],
    [
      { host: 'tcp://[fd00::5]:2376', tls: TLS },
      { kind: 'tls', host: 'fd00::5', port: 2376, tls: TLS },
    ],
  ])('accepts %j', (ep, addr) => {
    expect(parseEngineEndpoint(ep)).toEqual(addr);
  });

  test.each([
    [{ host: 'tcp://10.0.0.5:2375' }, 'remote_engine_insecure'],
    [{ host: 'tcp://manager.example:2376' }, 'remote_engine_insecure'],
    [{ host: 'ssh://u@h' }, 'validation_failed'],
    [{ host: 'tcp://h:99999', tls: TLS }, 'validation_failed'],
    [{ host: 'tcp://h:1;rm', tls: TLS }, 'validation_failed'],
  ])('refuses %j with %s', (ep, code) => {
    expect(codeOf(RunnerError, () => parseEngineEndpoint(ep))).toBe(code);
  });
});

describe('swarm node map', () => {
  it('maps node ids to engines and refuses a tcp node without TLS, bad ids and non-JSON (reasons name keys, never values)', () => {
    const ok = parseSwarmNodes(JSON.stringify({ abc123: { host: 'unix:///n1.sock' }, def456: { host: 'tcp://10.1.1.1:2376', tls: TLS } }));
    expect(ok.kind).toBe('ok');
    expect(ok.kind === 'ok' && ok.nodes.get('def456')).toEqual({ kind: 'tls', host: '10.1.1.1', port: 2376, tls: TLS });
    expect(parseSwarmNodes(JSON.stringify({ abc: { host: 'tcp://10.1.1.1:2375' } }))).toEqual({
      kind: 'invalid',
      reason: 'abc: remote_engine_insecure',
    });
    expect(parseSwarmNodes(JSON.stringify({ '../x': { host: 'unix:///a' } })).kind).toBe('invalid');
    expect(parseSwarmNodes(JSON.stringify({ abc: { host: 'unix:///a', tls: { ca: 'rel.pem' } } })).kind).toBe('invalid');
    const secretish = parseSwarmNodes('{"abc": {"host": "tcp://s3cr3t-host:1"');
    expect(secretish).toEqual({ kind: 'invalid', reason: 'not JSON' });
  });

  it('loads the map file: missing, a symlink refused, too large refused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gs-swarm-nodes-'));
    try {
      expect(await loadSwarmNodes(undefined)).toEqual({ kind: 'missing' });
      expect(await loadSwarmNodes(path.join(dir, 'absent.json'))).toEqual({ kind: 'missing' });
      writeFileSync(path.join(dir, 'nodes.json'), JSON.stringify({ abc: { host: 'unix:///a.sock' } }));
      expect((await loadSwarmNodes(path.join(dir, 'nodes.json'))).kind).toBe('ok');
      symlinkSync(path.join(dir, 'nodes.json'), path.join(dir, 'link.json'));
      expect(await loadSwarmNodes(path.join(dir, 'link.json'))).toEqual({ kind: 'unreadable', reason: 'not a regular file' });
      writeFileSync(path.join(dir, 'big.json'), 'x'.repeat(300_000));
      expect(await loadSwarmNodes(path.join(dir, 'big.json'))).toEqual({ kind: 'unreadable', reason: 'too large' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('swarm plan', () => {
  let dirs: TestDirs;
  let ctx: RunnerContext;
  beforeAll(() => {
    dirs = makeDirs('gs-swarm-plan-');
    ctx = makeCtx(dirs.home, { llm: { allowedHosts: ['llm.example'], defaultEndpoint: 'https://llm.example/v1' } });
  });
  afterAll(() => dirs.cleanup());
  const spec = (o: Partial<AgentLaunchSpec> = {}): AgentLaunchSpec => makeSwarmSpec({ workspace: dirs.workspace, ...o });

  const table: [string, Partial<AgentLaunchSpec>, { host: string } | undefined, string][] = [
    ['a tcp manager without TLS', {}, { host: 'tcp://10.0.0.1:2375' }, 'remote_engine_insecure'],
    ['genswarms-agent (no host build reaches a node)', { client: 'genswarms-agent' }, undefined, 'validation_failed'],
    ['a relative command', { client: { command: ['node', '-e', '1'] } }, undefined, 'validation_failed'],
    ['replicas 2', { backendOpts: { replicas: 2 } }, undefined, 'validation_failed'],
    ['a constraint with a newline', { backendOpts: { constraints: ['a==b\nc==d'] } }, undefined, 'validation_failed'],
    ['an extra bind', { config: { extra_ro_binds: [['/etc', '/etc']] } }, undefined, 'validation_failed'],
    ['skills', { skills: ['/tmp/skill'] }, undefined, 'validation_failed'],
    ['seccomp', { config: { seccomp: 'default' } }, undefined, 'seccomp_unsupported'],
    [
      'isolated with an untrusted endpoint',
      { network: 'isolated', endpoint: 'https://evil.example/v1' },
      undefined,
      'endpoint_not_allowed',
    ],
    ['memory_limit below 4m', { config: { memory_limit: '1k' } }, undefined, 'validation_failed'],
  ];
  test.each(table)('%s is refused', (_name, o, manager, code) => {
    expect(codeOf(RunnerError, () => planSwarmLaunch(spec(o), ctx, manager))).toBe(code);
  });

  it.each([
    ['none', ['network_unfiltered']],
    ['isolated', ['network_unfiltered']],
    ['open', []],
  ] as const)(
    "network %s records %j: a task gets the node daemon's default seccomp profile (Engine API 1.41 drops Privileges.Seccomp)",
    (network, notices) => {
      const plan = planSwarmLaunch(spec({ network, config: {} }), ctx, undefined);
      expect(plan.notices).toEqual(notices);
    },
  );

  it('a TLS manager plans; isolated points the client at the forwarder service, never at the endpoint itself', () => {
    const plan = planSwarmLaunch(spec({ network: 'isolated' }), ctx, { host: 'tcp://10.0.0.1:2376', tls: TLS });
    expect(plan.env['GENSWARMS_LLM_ENDPOINT']).toBe('http://gs-sw-a1-egress:17080/v1');
    expect(plan.egress).toMatchObject({ host: 'llm.example', port: 443, tls: true });
  });

  it('the service body: one replica, restart none, no Env, env by secret file 0400, labels with ids only, limits, dnsrr', () => {
    const plan = planSwarmLaunch(
      spec({ config: { env: { MY_SECRET: 'v' }, memory_limit: '64m', cpu_limit: 0.5, pids_limit: 64 } }),
      ctx,
      undefined,
    );
    const names = swarmNamesFor('sw', 'a1', plan.sessionId);
    const body = buildServiceSpec(
      plan,
      ctx,
      'img',
      names,
      { secretId: 's1', configId: 'c1' },
      { constraints: ['node.id==abc'], networks: [] },
    );
    const json = JSON.stringify(body);
    expect(json).not.toContain('"v"');
    const tt = body['TaskTemplate'] as Record<string, Record<string, unknown>>;
    expect(tt['ContainerSpec']?.['Env']).toEqual([]);
    expect(tt['ContainerSpec']?.['Secrets']).toEqual([
      { SecretID: 's1', SecretName: names.secret, File: { Name: 'genswarms-env', UID: '65532', GID: '65532', Mode: 0o400 } },
    ]);
    expect(tt['RestartPolicy']).toEqual({ Condition: 'none', MaxAttempts: 0 });
    expect(tt['Resources']?.['Limits']).toEqual({ Pids: 64, MemoryBytes: 64 * 1024 * 1024, NanoCPUs: 5e8 });
    expect(tt['Placement']).toEqual({ Constraints: ['node.id==abc'] });
    expect(body['Mode']).toEqual({ Replicated: { Replicas: 1 } });
    expect(body['EndpointSpec']).toEqual({ Mode: 'dnsrr' });
    expect(Object.keys(body['Labels'] as object).sort()).toEqual(['genswarms.agent', 'genswarms.session', 'genswarms.swarm']);
  });
});
