import type { OverlayEvent } from '../state/types';
import { irAgent } from '../test-support/fixtures';
import { gateStart } from './gate-start';

const cfg = (agents: unknown[], extra: Record<string, unknown> = {}): unknown => ({ name: 's', agents, ...extra });
const budget = { budget: { requests: 3 } };
const rate = { rate_limit: { requests_per_minute: 10 } };

describe('a budget needs the metering egress relay (budget_unenforceable)', () => {
  test.each([
    ['a budget on an open bwrap agent', { backend: 'bwrap', ...budget }, 'bwrap', 'open'],
    ['a rate limit on an open docker agent', { backend: 'docker', ...rate }, 'docker', 'open'],
    ['a budget on a local agent', { backend: 'local', ...budget }, 'local', 'open'],
    ['a budget on a tmux pane (runner none)', { backend: 'tmux', client: 'codex', ...budget }, 'tmux', 'open'],
    ['a budget on a tmux+bwrap pane', { backend: { type: 'tmux', runner: 'bwrap' }, client: 'codex', ...budget }, 'tmux', 'open'],
    ['a budget on a named docker network', { backend: 'docker', network: 'net1', ...budget }, 'docker', 'net1'],
    [
      'a budget on a Docker Swarm isolated agent (its forwarder is a service)',
      { backend: { type: 'swarm', image: 'img:1' }, client: { command: ['/bin/agent'] }, network: 'isolated', ...budget },
      'swarm',
      'isolated',
    ],
    ['a budget on an ssh agent', { backend: { type: 'ssh', host: 'u@h' }, ...budget }, 'ssh', 'open'],
  ])('refuses %s, naming the agent, backend and network', (_label, agent, backend, network) => {
    expect(gateStart(cfg([{ name: 'x', ...agent }]))).toMatchObject({
      kind: 'refused',
      error: 'budget_unenforceable',
      agent: 'x',
      scope: 'agent',
      backend,
      network,
    });
  });

  test.each([
    ['isolated on bwrap', { network: 'isolated', ...budget, ...rate }],
    ['ISOLATED on docker', { backend: 'docker', network: 'ISOLATED', ...budget }],
    ['none on bwrap (no call leaves at all)', { network: 'none', ...budget }],
    ['the mock backend (it calls nothing)', { backend: 'mock', ...rate }],
    ['an open agent without any limit', { backend: 'local' }],
  ])('accepts a limit on %s', (_label, agent) => {
    expect(gateStart(cfg([{ name: 'x', ...agent }])).kind).toBe('ok');
  });

  test('a swarm budget applies to every agent: one open agent refuses it (scope swarm)', () => {
    const r = gateStart(
      cfg(
        [
          { name: 'a', network: 'isolated' },
          { name: 'b', backend: 'local' },
        ],
        { options: { budget: { tokens: 1000 } } },
      ),
    );
    expect(r).toMatchObject({ error: 'budget_unenforceable', agent: 'b', scope: 'swarm' });
  });

  test('a swarm rate limit over isolated agents only is accepted', () => {
    expect(gateStart(cfg([{ name: 'a', network: 'isolated' }], { options: { rate_limit: { tokens_per_minute: 5 } } })).kind).toBe('ok');
  });

  test('checks the agents and options the overlay added too', () => {
    const add: OverlayEvent[] = [
      { seq: 1, op: 'add_agent', payload: irAgent('b', { backend: { ref: 'local' }, config: { budget: { requests: 1 } } }) as never },
    ];
    expect(gateStart(cfg([{ name: 'a' }]), { overlayEvents: add })).toMatchObject({ error: 'budget_unenforceable', agent: 'b' });
    const options: OverlayEvent[] = [{ seq: 1, op: 'set_options', payload: { options: { rate_limit: { requests_per_minute: 1 } } } }];
    expect(gateStart(cfg([{ name: 'a', backend: 'local' }]), { overlayEvents: options })).toMatchObject({
      error: 'budget_unenforceable',
      scope: 'swarm',
    });
  });
});
