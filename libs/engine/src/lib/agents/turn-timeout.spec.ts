import type { AgentConfig } from '@genswarms/ir-gate';
import type { ClientSpec } from '@genswarms/runners';
import { CLIENT_TURN_TIMEOUT_MS, turnTimeoutOf } from './turn-timeout';

describe('the turn timeout an agent gets', () => {
  const agent = (turn_timeout_ms?: number): AgentConfig =>
    ({ name: 'a', ...(turn_timeout_ms === undefined ? {} : { turn_timeout_ms }) }) as AgentConfig;

  it.each<[string, ClientSpec, number | undefined, number | undefined]>([
    ['codex without one', 'codex', undefined, CLIENT_TURN_TIMEOUT_MS],
    ['claude without one', 'claude', undefined, CLIENT_TURN_TIMEOUT_MS],
    ['opencode without one', 'opencode', undefined, CLIENT_TURN_TIMEOUT_MS],
    ['codex with its own', 'codex', 5000, 5000],
    ['genswarms-agent without one', 'genswarms-agent', undefined, undefined],
    ['a command named like a client', { command: ['codex'] }, undefined, undefined],
    ['a command with its own', { command: ['x'] }, 7, 7],
  ])('%s', (_label, client, own, expected) => {
    expect(turnTimeoutOf(agent(own), client)).toBe(expected);
  });

  it('is 30 minutes for the published clients', () => {
    expect(CLIENT_TURN_TIMEOUT_MS).toBe(30 * 60 * 1000);
  });
});
