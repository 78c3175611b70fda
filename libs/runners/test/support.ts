import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerContext } from '../src/index';
import { buildRunnerContext } from '../src/index';
import { waitFor } from '@genswarms/test-kit';

export const FIXTURES = path.join(__dirname, 'fixtures');
export const ECHO_ARGV = path.join(FIXTURES, 'echo-argv.js');
export const PROBE_SANDBOX = path.join(FIXTURES, 'probe-sandbox.js');
/** The PATH the tests resolve binaries on (the test runner's own; libraries never read it). */
export const TEST_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * A temp root with a GENSWARMS_HOME (0700) and a workspace outside it. The root is 1733 (search and
 * create, no listing, sticky) because a root test process runs its agents as the agent uid (the uid
 * rule), and the fixtures write their reports here.
 */
export function makeSandboxDirs(prefix = 'gs-runners-'): { root: string; home: string; workspace: string; cleanup(): void } {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  chmodSync(root, 0o1733);
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'ws');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(workspace, { mode: 0o700 });
  return { root, home, workspace, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * A runner context on `home`. The workspace root is the directory holding `home` (makeSandboxDirs' temp
 * root, whose `ws` is the named workspace), unless `overrides.workspaceRoots` names others.
 */
export function makeContext(home: string, overrides: Partial<Parameters<typeof buildRunnerContext>[0]> = {}): RunnerContext {
  return buildRunnerContext({
    workspaceRoots: [path.dirname(realpathSync(home))],
    path: TEST_PATH,
    home,
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
    agentEntry: ECHO_ARGV,
    node: process.execPath,
    llm: { allowedHosts: [] },
    userHome: os.homedir(),
    ...overrides,
  });
}

export function makeSpec(overrides: Partial<AgentLaunchSpec> & Pick<AgentLaunchSpec, 'workspace'>): AgentLaunchSpec {
  return {
    swarm: 'swarm1',
    agent: 'agent1',
    backend: 'local',
    client: 'genswarms-agent',
    network: 'open',
    skills: [],
    unsafeBypass: false,
    topologyTargets: [],
    config: {},
    backendOpts: {},
    ...overrides,
  };
}

/** Wait for a file written by a fixture (bounded). */
export async function waitForFile(file: string, timeoutMs = 15000): Promise<string> {
  // writers create the file, then write it: an empty file is one still being written
  const read = (): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  return waitFor(read, `${file} to be written`, { timeoutMs, intervalMs: 20, until: (text) => text !== '' });
}

/** A fixture's JSON report once it is fully written; absent, empty or partial (still being written) → undefined. */
export function readJsonIfWritten<T = unknown>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Hostile argv words: shell syntax that must stay data. */
export function hostileWords(marker: string): string[] {
  return [
    `$(touch ${marker})`,
    `\`touch ${marker}\``,
    `; touch ${marker}`,
    `| touch ${marker}`,
    `&& touch ${marker}`,
    `'"quoted"'`,
    'back\\slash',
    'new\nline',
    'tab\there',
    '-leading-dash',
    '--',
    '--dash-dash=value',
    'ünïcödé ✓ 漢字',
    '${HOME}',
    '*',
    ' ',
    'x'.repeat(100_000),
  ];
}

export function haveBinary(name: string): boolean {
  return TEST_PATH.split(':').some((d) => existsSync(path.join(d, name)));
}
