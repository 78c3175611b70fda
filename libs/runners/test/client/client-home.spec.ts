import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createLocalRunner, stateDirFor } from '../../src/index';
import type { AgentLaunchSpec, RunnerContext, RunnerHandle } from '../../src/index';
import { ECHO_ARGV, makeContext, makeSandboxDirs, makeSpec, waitForFile } from '../support';

// start writes a coding client's HOME files into the agent's state_dir: 0600/0700, the agent's, never through a link.
let dirs: ReturnType<typeof makeSandboxDirs>;
let handle: RunnerHandle | undefined;
beforeEach(() => {
  dirs = makeSandboxDirs();
});
afterEach(async () => {
  await handle?.stop({ graceMs: 200 });
  handle = undefined;
  dirs.cleanup();
});

const KEY = 'sk-gs-home-files-test-key';

function context(): RunnerContext {
  return makeContext(dirs.home, {
    llm: {
      defaultEndpoint: 'http://127.0.0.1:9/v1',
      serverApiKey: KEY,
      allowedHosts: ['127.0.0.1'],
      endpointApis: ['openai-responses', 'openai-chat', 'anthropic-messages'],
    },
  });
}

/** A local headless agent: genswarms-agent is the echo-argv fixture here, so start runs it once and it reports. */
function headless(client: 'codex' | 'claude' | 'opencode', report: string): AgentLaunchSpec {
  return makeSpec({
    workspace: dirs.workspace,
    client,
    model: 'mock-model',
    backendOpts: { client_mode: 'headless' },
    config: { agent_binary_path: ECHO_ARGV, env: { ECHO_ARGV_OUT: report } },
  });
}

async function startAndReport(spec: AgentLaunchSpec): Promise<{ argv: string[]; env: Record<string, string> }> {
  const runner = createLocalRunner();
  const ctx = context();
  handle = await runner.start(runner.plan(spec, ctx), ctx);
  return JSON.parse(await waitForFile(spec.config.env?.['ECHO_ARGV_OUT'] ?? '')) as { argv: string[]; env: Record<string, string> };
}

const FILES: ReadonlyArray<readonly ['codex' | 'claude' | 'opencode', readonly string[]]> = [
  ['codex', ['.codex/config.toml']],
  ['claude', ['.claude/settings.json', '.claude.json']],
  ['opencode', ['.config/opencode/opencode.json']],
];

describe.each(FILES)('%s HOME files', (client, files) => {
  it('are written 0600 in 0700 directories, owned by the agent, without the key; the key is only in the env', async () => {
    const report = path.join(dirs.root, `${client}.json`);
    const got = await startAndReport(headless(client, report));
    const state = stateDirFor(dirs.home, 'swarm1', 'agent1');
    const owner = statSync(state).uid;
    for (const rel of files) {
      const file = path.join(state, rel);
      const st = lstatSync(file);
      expect([rel, st.isFile(), st.mode & 0o777, st.uid]).toEqual([rel, true, 0o600, owner]);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    }
    expect(got.env['GENSWARMS_LLM_API_KEY']).toBe(KEY);
    expect(got.argv.join(' ')).not.toContain(KEY);
    const exec = JSON.parse(got.env['GENSWARMS_CLIENT_EXEC'] ?? '{}') as { v: number; client: string; argv: string[] };
    expect([exec.v, exec.client, exec.argv[0]]).toEqual([1, client, ECHO_ARGV]);
    expect(exec.argv.join(' ')).not.toContain(KEY);
    expect(got.env['TMPDIR']).toBe(path.join(state, '.tmp'));
  });
});

describe('hostile state_dir contents', () => {
  it('replaces a planted link at a HOME file instead of writing through it', async () => {
    const state = stateDirFor(dirs.home, 'swarm1', 'agent1');
    mkdirSync(state, { recursive: true, mode: 0o700 });
    const outside = path.join(dirs.root, 'outside.json');
    writeFileSync(outside, 'untouched');
    symlinkSync(outside, path.join(state, '.claude.json'));
    await startAndReport(headless('claude', path.join(dirs.root, 'r.json')));
    expect(readFileSync(outside, 'utf8')).toBe('untouched');
    expect(lstatSync(path.join(state, '.claude.json')).isFile()).toBe(true);
  });

  it('refuses a HOME directory that is a link (state_dir_unsafe) and leaves its target alone', async () => {
    const state = stateDirFor(dirs.home, 'swarm1', 'agent1');
    mkdirSync(state, { recursive: true, mode: 0o700 });
    const elsewhere = path.join(dirs.root, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, path.join(state, '.codex'));
    const runner = createLocalRunner();
    const ctx = context();
    await expect(runner.start(runner.plan(headless('codex', path.join(dirs.root, 'r.json')), ctx), ctx)).rejects.toMatchObject({
      code: 'state_dir_unsafe',
    });
    expect(existsSync(path.join(elsewhere, 'config.toml'))).toBe(false);
  });

  it('takes a HOME directory back to 0700 when the client widened it', async () => {
    const state = stateDirFor(dirs.home, 'swarm1', 'agent1');
    mkdirSync(state, { recursive: true, mode: 0o700 });
    mkdirSync(path.join(state, '.config'), { mode: 0o700 });
    chmodSync(path.join(state, '.config'), 0o755);
    await startAndReport(headless('opencode', path.join(dirs.root, 'r.json')));
    expect(statSync(path.join(state, '.config')).mode & 0o777).toBe(0o700);
  });
});
