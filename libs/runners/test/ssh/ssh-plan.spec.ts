import * as path from 'node:path';
import { createSshRunner } from '../../src/lib/ssh/ssh-runner';
import { ctlCommand, remoteAgentId, remoteLayout, runCommand } from '../../src/lib/ssh/remote-layout';
import type { AgentLaunchSpec } from '../../src/lib/port';
import { RunnerError } from '../../src/lib/errors/runner-error';
import { makeContext, makeSandboxDirs, makeSpec } from '../support';
import { codeOf } from '@genswarms/test-kit';

const dirs = makeSandboxDirs('gs-ssh-plan-');
afterAll(() => dirs.cleanup());
const ctx = makeContext(dirs.home);
const runner = createSshRunner();

const spec = (over: Partial<AgentLaunchSpec> = {}, opts: Record<string, unknown> = {}): AgentLaunchSpec =>
  makeSpec({
    backend: 'ssh',
    host: 'dev@build-1.example.com',
    workspace: path.join(dirs.root, 'ws'),
    backendOpts: { key_path: '/home/op/.ssh/id_ed25519', ...opts },
    ...over,
  });

describe('ssh plan: the hostile table (refused before anything connects)', () => {
  test.each<[string, Partial<AgentLaunchSpec>, Record<string, unknown>, string | undefined]>([
    ['a plain agent (planned)', {}, {}, undefined],
    ['silently_accept_hosts as the string "true"', {}, { silently_accept_hosts: 'true' }, 'validation_failed'],
    ['silently_accept_hosts as 1', {}, { silently_accept_hosts: 1 }, 'validation_failed'],
    ['an unknown option (ProxyCommand)', {}, { proxy_command: 'nc %h %p' }, 'validation_failed'],
    ['an option named __proto__', {}, JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>, 'validation_failed'],
    ['no key_path', {}, { key_path: undefined }, 'validation_failed'],
    ['a relative key_path', {}, { key_path: 'id_ed25519' }, 'validation_failed'],
    ['a key_path with ..', {}, { key_path: '/home/op/../op/.ssh/id' }, 'validation_failed'],
    ['a relative known_hosts', {}, { known_hosts: 'known_hosts' }, 'validation_failed'],
    ['port 0', {}, { port: 0 }, 'validation_failed'],
    ['port as a string', {}, { port: '22' }, 'validation_failed'],
    ['a remote_node with a space', {}, { remote_node: '/opt/my node/bin/node' }, 'validation_failed'],
    ['a remote_agent_entry with shell syntax', {}, { remote_agent_entry: '/opt/a;reboot' }, 'validation_failed'],
    ['a host with shell syntax', { host: 'dev@h;id' }, {}, 'validation_failed'],
    ['a host that is an option', { host: '-oProxyCommand=sh' }, {}, 'validation_failed'],
    ['no host', { host: undefined }, {}, 'validation_failed'],
    ['network none', { network: 'none' }, {}, 'unsupported_network'],
    ['network isolated', { network: 'isolated' }, {}, 'unsupported_network'],
    ['a TUI client', { client: 'codex' }, {}, 'validation_failed'],
    ['a command with a relative executable', { client: { command: ['python3', '-c', 'x'] } }, {}, 'validation_failed'],
    [
      'a command with a bypass flag',
      { client: { command: ['/usr/bin/claude', '--dangerously-skip-permissions'] } },
      {},
      'bypass_requires_opt_in',
    ],
    ['skills', { skills: ['/tmp/skill'] }, {}, 'validation_failed'],
    ['an env name that is reserved', { config: { env: { PATH: '/x' } } }, {}, 'validation_failed'],
  ])('%s → %s', (_name, over, opts, code) => {
    expect(codeOf(RunnerError, () => runner.plan(spec(over, opts), ctx))).toBe(code);
  });

  it('a plan holds env names and values, never the key; notices say when the host key will not be verified', () => {
    const plan = runner.plan(spec({ config: { env: { MY_SECRET: 's3cret' } } }, { silently_accept_hosts: true }), ctx);
    expect(plan.env['MY_SECRET']).toBe('s3cret');
    expect(plan.notices).toContain('ssh_host_key_unverified');
    expect(runner.plan(spec(), ctx).notices).not.toContain('ssh_host_key_unverified');
  });
});

describe('the remote layout and the constant command lines', () => {
  const id = remoteAgentId('/srv/gs', 'swarm', 'agent');
  it('names the agent directory with 32 hex characters of its server, swarm and agent', () => {
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(remoteAgentId('/srv/other', 'swarm', 'agent')).not.toBe(id);
  });
  it('sends only generated paths: the run and ctl command lines, whole', () => {
    const l = remoteLayout('/home/dev', id);
    expect(runCommand(l)).toBe(`/home/dev/.genswarms-ssh/bin/genswarms-ssh-run /home/dev/.genswarms-ssh/agents/${id}/launch.argv`);
    expect(ctlCommand(l, 'stop', { pid: 4242, startTime: '987654' })).toBe(
      `/home/dev/.genswarms-ssh/bin/genswarms-ssh-ctl stop /home/dev/.genswarms-ssh/agents/${id}/launch.argv 4242 987654`,
    );
  });
  test.each<[string, number, string]>([
    ["pid 0 (kill -0 would name the ctl's own group)", 0, '1'],
    ['a negative pid', -1, '1'],
    ['a fractional pid', 1.5, '1'],
    ['a pid past 10 digits', 2 ** 40, '1'],
    ['NaN', Number.NaN, '1'],
    ['an empty start time', 1, ''],
    ['a start time with shell syntax', 1, '1;reboot'],
    ['a start time with a space', 1, '1 2'],
    ['a negative start time', 1, '-5'],
  ])('refuses a recorded process with %s in a ctl command line', (_what, pid, startTime) => {
    expect(() => ctlCommand(remoteLayout('/home/dev', id), 'stop', { pid, startTime })).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
  });
  test.each(['/home/dev user', '/home/$(id)', '/home/a;b', 'relative', '/home/dev/../x', '/home/\u00e9'])(
    'refuses a remote home %j',
    (home) => {
      expect(() => remoteLayout(home, id)).toThrow(expect.objectContaining({ code: 'ssh_remote_unsafe' }));
    },
  );
  it('refuses an agent id that is not 32 hex characters', () => {
    expect(() => remoteLayout('/home/dev', '../x')).toThrow(expect.objectContaining({ code: 'ssh_remote_unsafe' }));
  });
});
