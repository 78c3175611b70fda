import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec } from '../../src/index';
import { dockerCli, TEST_IMAGE } from '../docker/docker-support';

/** Where tools/docker/two-node-swarm.sh writes the node map (GENSWARMS_SWARM_NODES format). */
export const NODES_FILE = path.join(process.env['GS_SWARM_STATE_DIR'] ?? '/run/genswarms-two-node', 'nodes.json');
export const CLIENT_JS = readFileSync(path.join(__dirname, 'fixtures', 'swarm-client.js'), 'utf8');
export const NODE2_HOST = 'unix:///var/run/gs-node2.sock';

/** Why the two-node specs cannot run here, or undefined when both nodes are Ready and the map exists. */
function clusterUnavailableReason(): string | undefined {
  if (!existsSync(NODES_FILE)) return `no ${NODES_FILE} (run tools/docker/two-node-swarm.sh up)`;
  const ready = dockerCli(['node', 'ls', '--format', '{{.Status}} {{.Availability}}']);
  if (ready === undefined) return 'the local engine is not a swarm manager';
  const n = ready.split('\n').filter((l) => l.trim() === 'Ready Active').length;
  if (n < 2) return `the swarm has ${n} ready node(s), the specs need 2`;
  return undefined;
}

let cached: { value: string | undefined } | undefined;
/** `describe` when the two-node swarm is up; otherwise a LOUD skip with the reason. */
export function describeIfTwoNodes(name: string, fn: () => void): void {
  cached ??= { value: clusterUnavailableReason() };
  if (cached.value === undefined) {
    describe(name, fn);
    return;
  }
  console.warn(`SKIPPED "${name}": ${cached.value}. In CI .ci/run starts the two-node swarm, so these specs run there.`);
  describe.skip(name, fn);
}

/** The node id labelled genswarms.node=<label> by the cluster script. */
export function nodeIdOf(label: 'node1' | 'node2'): string {
  const ids = (dockerCli(['node', 'ls', '-q']) ?? '').split('\n').filter(Boolean);
  for (const id of ids) {
    if ((dockerCli(['node', 'inspect', '-f', '{{index .Spec.Labels "genswarms.node"}}', id]) ?? '').trim() === label) return id;
  }
  throw new Error(`no node labelled ${label}`);
}

export function makeSwarmSpec(overrides: Partial<AgentLaunchSpec> & Pick<AgentLaunchSpec, 'workspace'>): AgentLaunchSpec {
  return {
    swarm: 'sw',
    agent: 'a1',
    backend: 'swarm',
    image: TEST_IMAGE,
    client: { command: ['/usr/bin/node', '-e', CLIENT_JS] },
    network: 'none',
    skills: [],
    unsafeBypass: false,
    topologyTargets: [],
    config: { env: { MY_SECRET: 'sekret-VALUE-42' } },
    backendOpts: { constraints: ['node.labels.genswarms.node==node2'] },
    ...overrides,
  };
}

/** The host's address on the veth to node2: every node reaches it (node1 is the host itself). */
export const HOST_VETH_ADDR = '10.231.0.1';
const MOCK_LLM_BIN = path.resolve(__dirname, '../../../../tools/bin/mock-llm.js');

/** The real tools mock LLM on `host`:0; resolves with its port once it prints its URL. */
export function startMockLlmOn(host: string): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MOCK_LLM_BIN, '--port', '0', '--host', host], {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin' },
    });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on http:\/\/[0-9.]+:(\d+)/.exec(out);
      if (m?.[1] !== undefined) resolve({ port: Number(m[1]), child });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`mock-llm exited early (${String(code)}): ${out}`)));
  });
}
