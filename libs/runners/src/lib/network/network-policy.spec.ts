import type { AgentLaunchSpec, BackendKind, InnerRunner, NetworkMode } from '../port';
import { assertNetworkSupported, parseNetworkMode } from './network-policy';

function spec(backend: BackendKind, network: NetworkMode, runner?: InnerRunner): AgentLaunchSpec {
  return {
    swarm: 's',
    agent: 'a',
    backend,
    ...(runner ? { runner } : {}),
    client: 'genswarms-agent',
    network,
    workspace: '/w',
    skills: [],
    unsafeBypass: false,
    topologyTargets: [],
    config: {},
    backendOpts: {},
  };
}
const named = { named: 'web' };

describe('docs/security.md network matrix', () => {
  it.each([
    ['local', undefined, [true, false, false, false]],
    ['bwrap', undefined, [true, true, true, false]],
    ['docker', undefined, [true, true, true, true]],
    ['tmux', 'none', [true, false, false, false]],
    ['tmux', 'bwrap', [true, true, false, false]],
    ['tmux', 'docker', [true, true, false, true]],
    ['mock', undefined, [true, true, true, true]],
  ] as const)('%s (runner %s) accepts exactly %j', (backend, runner, expected) => {
    const modes: NetworkMode[] = ['open', 'none', 'isolated', named];
    modes.forEach((mode, i) => {
      const run = (): void => assertNetworkSupported(spec(backend, mode, runner));
      if (expected[i]) expect(run).not.toThrow();
      else
        expect(run).toThrow(
          expect.objectContaining({
            code: 'unsupported_network',
            details: { agent: 'a', network: typeof mode === 'string' ? mode : 'web' },
          }),
        );
    });
  });

  it.each([
    ['OPEN', 'open'],
    ['Isolated', 'isolated'],
    ['NONE', 'none'],
    ['my-net.1', { named: 'my-net.1' }],
  ])('parses %s case-insensitively', (raw, expected) => {
    expect(parseNetworkMode(raw)).toEqual(expected);
  });

  it.each(['host', 'HOST', '', '-x', 'a b', '__proto__x;'])('refuses %p (validation_failed)', (raw) => {
    expect(() => parseNetworkMode(raw)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
