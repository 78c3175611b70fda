/** Shared helpers of the tmux runner specs: temp homes, a real runner context, fixtures, polling. */
import { existsSync, promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerContext } from '../../src/lib/port';
import { buildRunnerContext } from '../../src/lib/context/runner-context';
import { readJsonIfWritten } from '../support';
import { waitFor } from '@genswarms/test-kit';

export const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';
export const NODE = '/usr/bin/node';
export const FIXTURES_DIR = path.join(__dirname, 'fixtures');
export const ECHO_ARGV = path.join(FIXTURES_DIR, 'echo-argv.js');
export const FAKE_TUI = path.resolve(__dirname, '..', '..', '..', '..', 'tools', 'bin', 'fake-tui.js');
/** Where the fixtures appear inside bwrap (bound read-only). */
export const SANDBOX_FIXTURES = '/opt/gs-fixtures';

/** Missing binaries for these specs (empty = runnable). */
export function missingBinaries(names: readonly string[]): string[] {
  return names.filter((n) => !['/usr/bin', '/bin', '/usr/local/bin'].some((d) => existsSync(path.join(d, n))));
}

/** `describe`, or a loud `describe.skip` naming the missing binaries. */
export function describeIfBinaries(names: readonly string[]): jest.Describe {
  const missing = missingBinaries(names);
  if (missing.length === 0) return describe;
  console.warn(`SKIPPING tmux specs: missing ${missing.join(', ')} (CI installs them)`);
  return describe.skip;
}

export interface TmuxTestEnv {
  readonly home: string;
  readonly workspace: string;
  readonly ctx: RunnerContext;
  cleanup(): Promise<void>;
}

/** A private temp GENSWARMS_HOME (0700) and a separate workspace, with a real runner context. */
export async function makeTestEnv(prefix: string): Promise<TmuxTestEnv> {
  const home = await fsp.mkdtemp(path.join(tmpdir(), `gs-${prefix}-home-`));
  const workspace = await fsp.mkdtemp(path.join(tmpdir(), `gs-${prefix}-ws-`));
  await fsp.chmod(home, 0o700);
  await fsp.chmod(workspace, 0o711); // a root test process runs agents as the agent uid: they must reach their workspaces below
  const ctx = buildRunnerContext({
    path: SYSTEM_PATH,
    home,
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
    agentEntry: '/nonexistent/genswarms-agent/main.js',
    llm: { allowedHosts: [] },
    node: NODE,
    userHome: '/root',
    workspaceRoots: [await fsp.realpath(tmpdir())], // the workspace is a temp dir of its own
  });
  return {
    home: ctx.home,
    workspace: await fsp.realpath(workspace),
    ctx,
    cleanup: async () => {
      await fsp.rm(home, { recursive: true, force: true });
      await fsp.rm(workspace, { recursive: true, force: true });
    },
  };
}

/** A tmux agent spec running `command` (runner none by default). */
export function tmuxSpec(
  env: TmuxTestEnv,
  agent: string,
  command: readonly string[],
  over: Partial<AgentLaunchSpec> = {},
): AgentLaunchSpec {
  return {
    swarm: 'sw',
    agent,
    backend: 'tmux',
    runner: 'none',
    client: { command },
    network: 'open',
    workspace: env.workspace,
    skills: [],
    unsafeBypass: false,
    topologyTargets: [],
    config: {},
    backendOpts: {},
    ...over,
  };
}

/** The kit's one polling helper, re-exported for the tmux specs that import it from here. */
export { waitFor };

export interface EchoReport {
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly exists: Record<string, boolean>;
  readonly ifaces: string[];
  readonly pid: number;
}

/** Waits for the echo-argv fixture's report in `workspace`. */
export async function readEchoReport(workspace: string): Promise<EchoReport> {
  const file = path.join(workspace, 'echo-argv.json');
  // echo-argv creates the file, then writes it: until it parses, it is still being written
  return waitFor(() => readJsonIfWritten<EchoReport>(file), 'echo-argv report');
}

/** Every readable /proc/<pid>/cmdline, NUL-joined words. */
export async function allCmdlines(): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fsp.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      out.push((await fsp.readFile(`/proc/${entry}/cmdline`)).toString('utf8'));
    } catch {
      // exited while we looked
    }
  }
  return out;
}
