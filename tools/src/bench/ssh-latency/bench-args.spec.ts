/** The remote receipt benches' arguments: turns, agents and which of poll / push run, in that order. */
import { parseSshLatencyArgs } from './main';
import { parseSwarmBenchArgs } from '../swarm-launch/main';

describe('remote receipt bench arguments', () => {
  test.each([
    [[], { turns: 50, modes: ['poll', 'push'] }],
    [['30'], { turns: 30, modes: ['poll', 'push'] }],
    [['30', '--mode', 'push'], { turns: 30, modes: ['push'] }],
    [['--mode', 'poll'], { turns: 50, modes: ['poll'] }],
    [['--mode', 'both', '10'], { turns: 10, modes: ['poll', 'push'] }],
  ])('ssh %j', (argv, want) => {
    expect(parseSshLatencyArgs(argv)).toEqual(want);
  });

  test.each([
    [[], { agents: 100, turns: 50, modes: ['poll', 'push'] }],
    [['0', '20'], { agents: 0, turns: 20, modes: ['poll', 'push'] }],
    [['0', '20', '--mode', 'push'], { agents: 0, turns: 20, modes: ['push'] }],
  ])('swarm %j', (argv, want) => {
    expect(parseSwarmBenchArgs(argv)).toEqual(want);
  });

  test.each([[['--mode']], [['--mode', 'fast']], [['-5']], [['0']], [['--turns', '5']]])('ssh refuses %j', (argv) => {
    expect(() => parseSshLatencyArgs(argv)).toThrow();
  });

  test.each([[['--mode', 'x']], [['ten']]])('swarm refuses %j', (argv) => {
    expect(() => parseSwarmBenchArgs(argv)).toThrow();
  });
});
