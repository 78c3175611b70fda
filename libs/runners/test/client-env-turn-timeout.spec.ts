import { buildClientEnv } from '../src/index';
import { makeContext, makeSandboxDirs, makeSpec } from './support';

describe('GENSWARMS_TURN_TIMEOUT_MS in the client environment', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(() => dirs.cleanup());

  const where = (): { sandbox: boolean; workspace: string; home: string } => ({
    sandbox: false,
    workspace: dirs.workspace,
    home: dirs.home,
  });

  it("carries the agent's turn_timeout_ms so the client can keep its LLM retries inside the turn", () => {
    const { env } = buildClientEnv(makeSpec({ workspace: dirs.workspace, turnTimeoutMs: 90_000 }), makeContext(dirs.home), where());
    expect(env['GENSWARMS_TURN_TIMEOUT_MS']).toBe('90000');
  });

  it('is absent when the agent has no turn timeout', () => {
    const { env } = buildClientEnv(makeSpec({ workspace: dirs.workspace }), makeContext(dirs.home), where());
    expect(Object.keys(env)).not.toContain('GENSWARMS_TURN_TIMEOUT_MS');
  });
});
