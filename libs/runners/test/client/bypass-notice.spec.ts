import { createBwrapRunner, createLocalRunner, createTmuxRunner } from '../../src/index';
import type { AgentLaunchSpec, Runner } from '../../src/index';
import { ECHO_ARGV, makeContext, makeSandboxDirs, makeSpec } from '../support';

// unsafe_bypass adds the client's bypass flag (pane argv, or the per-turn argv of a headless agent), and the
// `unsafe_bypass_enabled` notice follows the flag: OpenCode has none, so it gets none.
let dirs: ReturnType<typeof makeSandboxDirs>;
beforeEach(() => {
  dirs = makeSandboxDirs();
});
afterEach(() => dirs.cleanup());

const RUNNERS: Readonly<Record<'tmux' | 'bwrap' | 'local', () => Runner>> = {
  tmux: createTmuxRunner,
  bwrap: createBwrapRunner,
  local: createLocalRunner,
};

const CASES: ReadonlyArray<readonly ['codex' | 'claude' | 'opencode', 'tmux' | 'bwrap' | 'local', boolean, string | undefined]> = [
  ['codex', 'tmux', true, '--dangerously-bypass-approvals-and-sandbox'],
  ['codex', 'bwrap', true, '--dangerously-bypass-approvals-and-sandbox'],
  ['claude', 'tmux', true, '--dangerously-skip-permissions'],
  ['claude', 'bwrap', true, '--dangerously-skip-permissions'],
  ['opencode', 'tmux', true, undefined],
  ['opencode', 'bwrap', true, undefined],
  ['codex', 'tmux', false, undefined],
  ['claude', 'local', false, undefined],
];

describe('bypass flags and their notice', () => {
  test.each(CASES)('%s on %s, unsafe_bypass %s → flag %s', (client, backend, unsafeBypass, flag) => {
    const spec: AgentLaunchSpec = makeSpec({
      workspace: dirs.workspace,
      backend,
      client,
      unsafeBypass,
      config: { agent_binary_path: ECHO_ARGV },
    });
    const plan = RUNNERS[backend]().plan(spec, makeContext(dirs.home));
    const exec = plan.env['GENSWARMS_CLIENT_EXEC'];
    const words = exec === undefined ? plan.clientArgv : (JSON.parse(exec) as { argv: string[] }).argv;
    expect(words.filter((w) => w.startsWith('--dangerously'))).toEqual(flag === undefined ? [] : [flag]);
    expect(plan.notices.includes('unsafe_bypass_enabled')).toBe(flag !== undefined);
  });
});
