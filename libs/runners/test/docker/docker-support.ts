import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerContext } from '../../src/index';
import type { buildRunnerContext } from '../../src/index';
import { makeContext, makeSandboxDirs, TEST_PATH } from '../support';
import { waitFor } from '@genswarms/test-kit';

export { TEST_PATH };

export const TEST_IMAGE = 'genswarms/test-agent:latest';
const BUILD_SCRIPT = path.resolve(__dirname, '../../../../tools/docker/build-test-image.sh');
const DOCKER = ['/usr/local/bin/docker', '/usr/bin/docker'].find((p) => existsSync(p));

/** `docker <args>` (argv only) → stdout, or undefined on failure. Test helper only. */
export function dockerCli(args: readonly string[]): string | undefined {
  if (DOCKER === undefined) return undefined;
  const res = spawnSync(DOCKER, [...args], { shell: false, encoding: 'utf8', env: { PATH: TEST_PATH }, timeout: 120000 });
  return res.status === 0 ? res.stdout : undefined;
}

/** Why engine specs cannot run here, or undefined when an engine and the test image are available. */
function engineUnavailableReason(): string | undefined {
  if (!existsSync('/var/run/docker.sock')) return 'no /var/run/docker.sock (dockerd not running)';
  if (dockerCli(['version', '--format', '{{.Server.Version}}']) === undefined) return 'the docker engine does not answer';
  if (dockerCli(['image', 'inspect', TEST_IMAGE]) !== undefined) return undefined;
  const built = spawnSync('/bin/bash', [BUILD_SCRIPT, TEST_IMAGE], {
    shell: false,
    stdio: 'ignore',
    env: { PATH: TEST_PATH },
    timeout: 300000,
  });
  return built.status === 0 ? undefined : `the test image ${TEST_IMAGE} could not be built`;
}

let cachedReason: { value: string | undefined } | undefined;
/** Why docker specs cannot run here (no engine, no test image), or undefined. Checked once per worker. */
export function dockerSkipReason(): string | undefined {
  cachedReason ??= { value: engineUnavailableReason() };
  return cachedReason.value;
}

/** `describe` when a Docker engine (and the test image) is reachable; otherwise a LOUD skip. */
export function describeIfEngine(name: string, fn: () => void): void {
  const reason = dockerSkipReason();
  if (reason === undefined) {
    describe(name, fn);
    return;
  }
  console.warn(`SKIPPED "${name}": ${reason}. In CI .ci/run starts dockerd, so these specs always run there.`);
  describe.skip(name, fn);
}

export interface TestDirs {
  readonly root: string;
  readonly home: string;
  readonly workspace: string;
  cleanup(): void;
}

/** Private temp root (0700) with GENSWARMS_HOME and a workspace outside it. */
export function makeDirs(prefix = 'gs-docker-'): TestDirs {
  return makeSandboxDirs(prefix);
}

/** The runners test context, with the image's node and an agent entry beside home (docker specs). */
export function makeCtx(home: string, overrides: Partial<Parameters<typeof buildRunnerContext>[0]> = {}): RunnerContext {
  return makeContext(home, { agentEntry: path.join(home, '..', 'agent', 'main.js'), node: '/usr/bin/node', ...overrides });
}

export function makeDockerSpec(overrides: Partial<AgentLaunchSpec> & Pick<AgentLaunchSpec, 'workspace'>): AgentLaunchSpec {
  return {
    swarm: 'dswarm',
    agent: 'a1',
    backend: 'docker',
    image: TEST_IMAGE,
    client: { command: ['/usr/bin/node', '-e', 'console.log("hi")'] },
    network: 'none',
    skills: [],
    unsafeBypass: false,
    topologyTargets: [],
    config: {},
    backendOpts: {},
    ...overrides,
  };
}

/** The kit's one polling helper, re-exported for the docker specs that import it from here. */
export { waitFor };

/** Every host process whose argv contains `needle` (via /proc). */
export function processesWithArgv(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`).toString('utf8').includes(needle)) pids.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

/** Containers (any state) carrying a label `key=value`. */
export function containersWithLabel(key: string, value: string): string[] {
  const out = dockerCli(['ps', '-aq', '--filter', `label=${key}=${value}`]) ?? '';
  return out.split('\n').filter((l) => l.length > 0);
}
