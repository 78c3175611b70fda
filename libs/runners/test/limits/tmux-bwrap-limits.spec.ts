/**
 * tmux runner bwrap: the pane's xargs entry joins the agent's limit groups, opens the seccomp filter, then drops
 * to the agent and starts bwrap — proven from inside a real pane: the client runs under the filter
 * (`Seccomp: 2` in its own status), a fork loop stops at pids_limit, and stop removes the groups and the filter.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createTmuxRunner } from '../../src/index';
import type { RunnerHandle } from '../../src/index';
import { limitGroupFor } from '../../src/lib/cgroup/agent-limits';
import { seccompFilterPath } from '../../src/lib/seccomp/seccomp-plan';
import { detectLimitSupport } from '../../src/lib/cgroup/limit-detect';
import { describeIfBinaries, makeTestEnv, tmuxSpec, waitFor, type TmuxTestEnv } from '../tmux/tmux-support';

const hasPids = detectLimitSupport().bases.pids !== undefined;
const suite = hasPids ? describeIfBinaries(['tmux', 'xargs', 'bwrap']) : describe.skip;
if (!hasPids) console.warn('SKIPPED tmux-bwrap-limits: no pids cgroup controller usable here');

suite('tmux runner bwrap with pids_limit and seccomp (real tmux, bwrap, cgroups)', () => {
  let env: TmuxTestEnv;
  let handle: RunnerHandle | undefined;
  const runner = createTmuxRunner();
  beforeEach(async () => {
    env = await makeTestEnv('tmux-limits');
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 200 });
    handle = undefined;
    await runner.close?.('shutdown');
    await env.cleanup();
  });

  it('the pane client runs filtered inside its pids group; stop removes the group and the filter file', async () => {
    const script = [
      // written aside and renamed: the test must never read the file between the shell's open and grep's write
      'grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status > /workspace/.status; mv /workspace/.status /workspace/status',
      'i=0; while [ $i -lt 200 ]; do sleep 60 & i=$((i+1)); echo $i > /workspace/count; done',
    ].join('; ');
    const spec = tmuxSpec(env, 'lim', ['/bin/sh', '-c', script], { runner: 'bwrap', config: { pids_limit: 16, seccomp: 'default' } });
    const plan = runner.plan(spec, env.ctx);
    const group = limitGroupFor(spec, env.ctx);
    const filter = seccompFilterPath(plan, env.ctx);
    handle = await runner.start(plan, env.ctx);
    const status = await waitFor(
      () => (existsSync(path.join(env.workspace, 'status')) ? readFileSync(path.join(env.workspace, 'status'), 'utf8') : undefined),
      'status',
    );
    expect(status).toMatch(/^Seccomp:\s+2$/m);
    expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
    const count = await waitFor(() => {
      const file = path.join(env.workspace, 'count');
      return existsSync(file) && readFileSync(file, 'utf8').trim() !== '' ? Number(readFileSync(file, 'utf8')) : undefined;
    }, 'count');
    expect(count).toBeLessThan(16);
    expect(existsSync(group?.dirs.pids as string)).toBe(true);
    await handle.stop({ graceMs: 200 });
    handle = undefined;
    expect(existsSync(group?.dirs.pids as string)).toBe(false);
    expect(existsSync(filter)).toBe(false);
  });
});
