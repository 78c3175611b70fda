import { validateConfig } from './validate-config';

type Obj = Record<string, unknown>;
const agent = (extra: Obj = {}): Obj => ({ name: 'a', ...extra });
const swarm = (agents: Obj[], extra: Obj = {}): Obj => ({ name: 's', agents, ...extra });

function issuesOf(input: unknown): Array<{ path?: string; message?: string; code?: string }> {
  const r = validateConfig(input);
  if (r.kind === 'ok') throw new Error('expected invalid');
  return r.issues as Array<{ path?: string; message?: string }>;
}

describe('swarm config schema (docs/configuration.md)', () => {
  test('accepts the smallest config and fills nothing it was not given', () => {
    const r = validateConfig(swarm([agent()]));
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') expect(r.config).toEqual({ name: 's', agents: [{ name: 'a' }] });
  });

  test.each([
    ['no agents', { name: 's', agents: [] }],
    ['agents missing', { name: 's' }],
    ['unknown top-level key', { name: 's', agents: [agent()], extra: 1 }],
    ['unknown agent key', swarm([agent({ login_shell: 'sh' })])],
    ['unknown object key', swarm([agent()], { objects: [{ name: 'o', handler: 'h', x: 1 }] })],
    ['unknown backend', swarm([agent({ backend: 'kubernetes' })])],
    ['unknown backend type', swarm([agent({ backend: { type: 'vm' } })])],
    ['unknown backend object key', swarm([agent({ backend: { type: 'bwrap', privileged: true } })])],
    ['runner without tmux', swarm([agent({ backend: { type: 'docker', runner: 'docker' } })])],
    ['unknown runner', swarm([agent({ backend: { type: 'tmux', runner: 'podman' }, client: 'codex' })])],
    ['image on bwrap', swarm([agent({ backend: { type: 'bwrap', image: 'x' } })])],
    ['image on tmux without docker', swarm([agent({ backend: { type: 'tmux', image: 'x' }, client: 'codex' })])],
    ['ssh without host', swarm([agent({ backend: { type: 'ssh' } })])],
    ['bare ssh (no host)', swarm([agent({ backend: 'ssh' })])],
    ['host on docker', swarm([agent({ backend: { type: 'docker', host: 'u@h' } })])],
    ['bare swarm (no image)', swarm([agent({ backend: 'swarm' })])],
    ['genswarms-agent on swarm', swarm([agent({ backend: { type: 'swarm', image: 'x' } })])],
    ['swarm replicas 2', swarm([agent({ backend: { type: 'swarm', image: 'x', opts: { replicas: 2 } } })])],
    ['swarm constraint not a comparison', swarm([agent({ backend: { type: 'swarm', image: 'x', opts: { constraints: ['node.role'] } } })])],
    ['swarm constraint with newline', swarm([agent({ backend: { type: 'swarm', image: 'x', opts: { constraints: ['a==b\nc==d'] } } })])],
    ['swarm unknown option', swarm([agent({ backend: { type: 'swarm', image: 'x', opts: { mode: 'global' } } })])],
    ['swarm node not an id', swarm([agent({ backend: { type: 'swarm', image: 'x', opts: { node: '../x' } } })])],
    ['opts.runner reserved', swarm([agent({ backend: { type: 'tmux', opts: { runner: 'docker' } }, client: 'codex' })])],
    ['opts not an object', swarm([agent({ backend: { type: 'mock', opts: [1] } })])],
    ['unknown client', swarm([agent({ client: 'aider' })])],
    ['codex on swarm', swarm([agent({ backend: { type: 'swarm', image: 'x' }, client: 'codex' })])],
    ['claude on ssh', swarm([agent({ backend: { type: 'ssh', host: 'u@h' }, client: 'claude' })])],
    ['opencode on mock', swarm([agent({ backend: 'mock', client: 'opencode' })])],
    ['genswarms-agent on tmux', swarm([agent({ backend: { type: 'tmux' } })])],
    ['command on mock', swarm([agent({ backend: 'mock', client: { command: ['x'] } })])],
    ['empty command', swarm([agent({ client: { command: [] } })])],
    ['empty argv word', swarm([agent({ client: { command: ['python3', ''] } })])],
    ['NUL in argv word', swarm([agent({ client: { command: ['a\0b'] } })])],
    ['257 argv words', swarm([agent({ client: { command: Array.from({ length: 257 }, () => 'w') } })])],
    ['command as string', swarm([agent({ client: { command: 'python3 -m x' } })])],
    ['client object extra key', swarm([agent({ client: { command: ['x'], interactive: true } })])],
    ['empty model', swarm([agent({ model: '' })])],
    ['201-char model', swarm([agent({ model: 'm'.repeat(201) })])],
    ['model with newline', swarm([agent({ model: 'a\nb' })])],
    ['model with escape', swarm([agent({ model: 'a\u001bb' })])],
    ['endpoint ftp', swarm([agent({ endpoint: 'ftp://h/x' })])],
    ['endpoint without host', swarm([agent({ endpoint: 'http://' })])],
    ['endpoint not a URL', swarm([agent({ endpoint: 'llm.example' })])],
    ['endpoint_api without endpoint', swarm([agent({ endpoint_api: 'openai-chat' })])],
    ['endpoint_api unknown', swarm([agent({ endpoint: 'http://h/v1', endpoint_api: 'openai' })])],
    ['endpoint_api empty list', swarm([agent({ endpoint: 'http://h/v1', endpoint_api: [] })])],
    ['endpoint_api as comma text', swarm([agent({ endpoint: 'http://h/v1', endpoint_api: 'openai-chat,openai-responses' })])],
    ['endpoint_api __proto__', swarm([agent({ endpoint: 'http://h/v1', endpoint_api: '__proto__' })])],
    ['unsafe_bypass as string', swarm([agent({ unsafe_bypass: 'true' })])],
    ['turn_timeout_ms 0', swarm([agent({ turn_timeout_ms: 0 })])],
    ['turn_timeout_ms too big', swarm([agent({ turn_timeout_ms: 86400001 })])],
    ['turn_timeout_ms float', swarm([agent({ turn_timeout_ms: 1.5 })])],
    ['reply_to an agent', swarm([agent({ reply_to: 'b' }), { name: 'b' }])],
    ['reply_to unknown', swarm([agent({ reply_to: 'ghost' })])],
    ['duplicate skill basenames', swarm([agent({ skills: ['a/web', 'b/web/'] })])],
    ['empty skill', swarm([agent({ skills: [''] })])],
    ['workspace with NUL', swarm([agent({ workspace: '/a\0b' })])],
    ['empty workspace', swarm([agent({ workspace: '' })])],
    ['object without handler', swarm([agent()], { objects: [{ name: 'o' }] })],
    ['max_agents 0', swarm([agent()], { options: { max_agents: 0 } })],
    ['max_agents too big', swarm([agent()], { options: { max_agents: 100001 } })],
    ['max_agents float', swarm([agent()], { options: { max_agents: 2.5 } })],
  ])('refuses %s', (_label, input) => {
    expect(issuesOf(input).length).toBeGreaterThan(0);
  });

  test.each([
    ['duplicate agents', swarm([agent(), agent()]), 'agents.1.name'],
    ['agent vs object', swarm([agent()], { objects: [{ name: 'a', handler: 'h' }] }), 'objects.0.name'],
    ['unknown edge source', swarm([agent()], { topology: [['x', 'a']] }), 'topology.0'],
    ['unknown edge target (object form)', swarm([agent()], { topology: [{ from: 'a', to: 'x' }] }), 'topology.0'],
  ])('refuses %s with a path', (_label, input, path) => {
    expect(issuesOf(input).map((i) => i.path)).toContain(path);
  });

  test.each([
    ['edge with 3 names', [['a', 'a', 'a']]],
    ['edge with extra key', [{ from: 'a', to: 'a', weight: 1 }]],
    ['edge with a bad name', [['a', '../x']]],
    ['edge as string', ['a->a']],
  ])('refuses a malformed edge: %s', (_label, topology) => {
    expect(validateConfig(swarm([agent()], { topology })).kind).toBe('invalid');
  });

  test.each([
    ['local', {}],
    ['bwrap', {}],
    ['docker', {}],
    ['mock', {}],
    [{ type: 'docker', image: 'gs:1' }, {}],
    [{ type: 'tmux', runner: 'docker', image: 'gs:1' }, { client: 'codex' }],
    [{ type: 'tmux', runner: 'bwrap' }, { client: 'claude' }],
    [{ type: 'tmux' }, { client: { command: ['vim'] } }],
    [{ type: 'apple_container', image: 'x' }, {}],
    [{ type: 'ssh', host: 'u@h', opts: { port: 22 } }, {}],
    [
      { type: 'swarm', image: 'x', opts: { constraints: ['node.labels.genswarms.node==node2'], replicas: 1 } },
      { network: 'isolated', client: { command: ['/usr/bin/node', 'c.js'] } },
    ],
    ['local', { client: 'opencode' }],
    ['bwrap', { client: 'codex' }],
    ['docker', { client: 'claude', network: 'isolated' }],
    ['local', { client: 'claude', endpoint: 'http://h/', endpoint_api: 'anthropic-messages' }],
    ['local', { client: 'codex', endpoint: 'http://h/v1', endpoint_api: ['openai-responses', 'openai-chat'] }],
    ['mock', { client: 'genswarms-agent' }],
  ])('accepts backend %j with %j', (backend, extra) => {
    expect(validateConfig(swarm([agent({ backend, ...extra })])).kind).toBe('ok');
  });

  test.each([
    ['ISOLATED', 'isolated'],
    ['Open', 'open'],
    ['NONE', 'none'],
    ['my-net.1', 'my-net.1'],
  ])('network %j is stored as %j', (given, stored) => {
    const r = validateConfig(swarm([agent({ backend: 'docker', network: given })]));
    expect(r.kind === 'ok' && r.config.agents[0]?.network).toBe(stored);
  });

  test.each([['host'], ['HOST'], ['-bad'], ['a b'], [''], ['n'.repeat(65)]])('refuses network %j', (network) => {
    expect(issuesOf(swarm([agent({ backend: 'docker', network })]))[0]?.path).toBe('agents.0.network');
  });

  test.each([
    ['env name with dash', { env: { 'A-B': 'x' } }],
    ['env GENSWARMS_ prefix', { env: { GENSWARMS_AGENT: 'x' } }],
    ['env SWARM_ prefix', { env: { SWARM_TOPOLOGY: 'x' } }],
    ['env HOME', { env: { HOME: '/x' } }],
    ['env PATH', { env: { PATH: '/x' } }],
    ['env value with newline', { env: { A: 'x\ny' } }],
    ['env value with NUL', { env: { A: 'x\0' } }],
    ['env value not a string', { env: { A: 1 } }],
    ['client_source bad', { client_source: 'nix' }],
    ['host_nix without nix_package', { client_source: 'host_nix' }],
    ['nix_package not a store path', { client_source: 'host_nix', nix_package: '/usr/bin' }],
    ['memory_limit bad', { memory_limit: '2gb' }],
    ['memory_limit number', { memory_limit: 2 }],
    ['cpu_limit 0', { cpu_limit: 0 }],
    ['cpu_limit negative', { cpu_limit: -1 }],
    ['pids_limit 15', { pids_limit: 15 }],
    ['pids_limit float', { pids_limit: 20.5 }],
    ['seccomp other than default', { seccomp: 'strict' }],
    ['seccomp boolean', { seccomp: true }],
    ['extra_ro_binds flat', { extra_ro_binds: ['/a', '/b'] }],
    ['extra_rw_binds triple', { extra_rw_binds: [['/a', '/b', '/c']] }],
    ['extra bind relative', { extra_ro_binds: [['a', '/b']] }],
    ['extra_path relative', { extra_path: ['bin'] }],
    ['agent_binary_path relative', { agent_binary_path: 'bin/x' }],
    ['reserved config key client', { client: 'codex' }],
    ['reserved config key network', { network: 'none' }],
  ])('refuses config with %s', (_label, config) => {
    expect(issuesOf(swarm([agent({ config })]))[0]?.path).toMatch(/^agents\.0\.config/);
  });

  test('accepts backend keys and opaque domain keys', () => {
    const config = {
      env: { OPENAI_ORG: 'x' },
      client_source: 'host_nix',
      nix_package: '/nix/store/abc-codex',
      memory_limit: '512m',
      cpu_limit: 0.5,
      pids_limit: 16,
      seccomp: 'default',
      extra_ro_binds: [['/opt/a', '/opt/a']],
      extra_path: ['/opt/bin'],
      agent_binary_path: '/opt/bin/agent',
      topic: { nested: [1, 2] },
    };
    expect(validateConfig(swarm([agent({ config })])).kind).toBe('ok');
  });

  test.each([
    ['__proto__ from JSON.parse', JSON.parse('{"name":"s","agents":[{"name":"a"}],"__proto__":{"x":1}}')],
    ['__proto__ inside config', JSON.parse('{"name":"s","agents":[{"name":"a","config":{"__proto__":{"polluted":1}}}]}')],
    ['__proto__ inside options', JSON.parse('{"name":"s","agents":[{"name":"a"}],"options":{"__proto__":1}}')],
    ['constructor in backend.opts', swarm([agent({ backend: { type: 'mock', opts: { constructor: 1 } } })])],
    ['prototype deep in config', swarm([agent({ config: { a: [{ b: { prototype: 1 } }] } })])],
    ['constructor as env name', swarm([agent({ config: { env: { constructor: 'x' } } })])],
  ])('refuses a prototype-poisoning key: %s', (_label, input) => {
    const issues = issuesOf(input);
    expect(issues[0]?.message).toMatch(/forbidden/);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('resolves relative workspace and skills against baseDir', () => {
    const r = validateConfig(swarm([agent({ workspace: 'work/a', skills: ['skills/x', '/abs/y'] })]), { baseDir: '/srv/cfg' });
    expect(r.kind === 'ok' && r.config.agents[0]).toMatchObject({ workspace: '/srv/cfg/work/a', skills: ['/srv/cfg/skills/x', '/abs/y'] });
  });

  test('keeps relative paths when no baseDir is given', () => {
    const r = validateConfig(swarm([agent({ workspace: 'w' })]));
    expect(r.kind === 'ok' && r.config.agents[0]?.workspace).toBe('w');
  });

  test('checks handlers against the registered list when given', () => {
    const input = swarm([agent()], { objects: [{ name: 'o', handler: 'nope' }] });
    expect(validateConfig(input).kind).toBe('ok');
    const r = validateConfig(input, { handlers: ['recorder'] });
    expect(r.kind === 'invalid' && r.issues).toEqual([{ path: 'objects.0.handler', message: 'not a registered handler' }]);
  });

  test('summarises a valid config', () => {
    const r = validateConfig(
      swarm([agent(), { name: 'b' }], { objects: [{ name: 'o', handler: 'h' }], topology: [['a', 'b'], { from: 'b', to: 'o' }] }),
    );
    expect(r.kind === 'ok' && r.summary).toEqual({
      name: 's',
      agent_count: 2,
      object_count: 1,
      edge_count: 2,
      agents: ['a', 'b'],
      objects: ['o'],
    });
  });

  test('issue messages never echo secret values', () => {
    const r = validateConfig(swarm([agent({ api_key: 'sk-SECRET', model: 'x\u0007sk-SECRET2', config: { env: { A: 'sk-SECRET3\n' } } })]));
    expect(JSON.stringify(r)).not.toMatch(/SECRET/);
  });
});
