import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { agentEnv } from './support/harness';
import { waitFor } from '@genswarms/test-kit';

const REPO = resolve(__dirname, '..', '..', '..');
const REGISTER = join(REPO, 'tools', 'jest', 'ts-register.cjs');
const AGENT_MAIN = join(REPO, 'apps', 'agent', 'src', 'main.ts');

/** A stand-in for the server: starts the agent in its own process group (as the local runner does), prints its pid. */
const PARENT = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const [log, register, main, env] = process.argv.slice(1);
const out = fs.openSync(log, 'a');
const child = spawn(process.execPath, ['--require', register, main], { detached: true, shell: false, stdio: ['ignore', out, out], env: JSON.parse(env) });
process.stdout.write(child.pid + '\\n');
setInterval(() => {}, 1000);
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('genswarms-agent whose server dies', () => {
  let dir = '';
  let agentPid: number | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-orphan-'));
  });
  afterEach(async () => {
    if (agentPid !== undefined && alive(agentPid)) process.kill(agentPid, 'SIGKILL'); // only the agent this test started
    agentPid = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('stops by itself once re-parented, instead of polling the workspace forever (no orphan agents)', async () => {
    const log = join(dir, 'agent.log');
    const env = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, ...agentEnv(join(dir, 'ws'), {}) };
    const parent = spawn(process.execPath, ['-e', PARENT, log, REGISTER, AGENT_MAIN, JSON.stringify(env)], {
      shell: false,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    parent.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    await waitFor(() => /^\d+\n/.test(out), 'the agent pid line', { timeoutMs: 20000 });
    agentPid = Number(out.trim());
    await waitFor(async () => (await readFile(log, 'utf8').catch(() => '')).includes('started'), "the agent's started line in its log", {
      timeoutMs: 20000,
    });
    const parentExited = new Promise((r) => parent.once('exit', r));
    parent.kill('SIGKILL'); // the server dies without stopping its agents
    await parentExited;
    await waitFor(() => !alive(agentPid ?? 0), 'the orphaned agent to exit', { timeoutMs: 20000 });
    const text = await readFile(log, 'utf8');
    expect(text).toContain('exited; stopping');
    expect(text).toContain('stopped');
  }, 60000);
});
