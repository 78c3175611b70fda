import { exitFailureOf } from './agent-failure';

describe('exitFailureOf', () => {
  it('a task Swarm replaced is agent_rescheduled, saying the turn in flight was failed, never run twice', () => {
    const f = exitFailureOf('agent_rescheduled', null, null);
    expect(f.code).toBe('agent_rescheduled');
    expect(f.message).toContain('never run twice');
  });

  it('a plain exit keeps its own reason and says how the process ended', () => {
    expect(exitFailureOf('process_exited', 3, null)).toMatchObject({ code: 'process_exited' });
    expect(exitFailureOf('process_exited', null, 'SIGKILL').message).toContain('killed by SIGKILL');
  });
});
