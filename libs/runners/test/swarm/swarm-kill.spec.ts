/**
 * kill -9 of the orchestrator mid-turn: a child process (the stand-in orchestrator) starts an agent on node2 and
 * hands it a slow turn, then is SIGKILLed; a fresh runner re-adopts the service from the recorded description
 * and the same turn completes — once (the client answered it exactly one time).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerHandle, SessionDescription } from '../../src/index';
import { createSwarmRunner } from '../../src/lib/swarm/swarm-runner';
import { dockerCli, makeCtx, makeDirs, type TestDirs } from '../docker/docker-support';
import { describeIfTwoNodes, NODES_FILE } from './swarm-support';

jest.setTimeout(600_000);
const REGISTER = path.resolve(__dirname, '../../../../tools/jest/ts-register.cjs');
const ORCHESTRATOR = path.join(__dirname, 'fixtures', 'swarm-orchestrator.ts');

describeIfTwoNodes('swarm: the orchestrator killed with SIGKILL mid-turn', () => {
  let dirs: TestDirs;
  let adopted: RunnerHandle | null = null;
  afterAll(async () => {
    await adopted?.stop();
    dirs?.cleanup();
  });

  it('re-adopts the service after a restart and the turn completes exactly once', async () => {
    dirs = makeDirs('gs-swarm-kill-');
    const workspace = dirs.workspace;
    const child = spawn(
      process.execPath,
      ['--conditions=@genswarms/source', '--require', REGISTER, ORCHESTRATOR, dirs.home, workspace, NODES_FILE, 'k1'],
      {
        shell: false,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const description = await new Promise<SessionDescription>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line !== undefined) resolve((JSON.parse(line) as { description: SessionDescription }).description);
      });
      child.on('exit', (code) => reject(new Error(`orchestrator exited early (${String(code)})`)));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const ctx = makeCtx(dirs.home);
    adopted = await createSwarmRunner({ nodesFile: NODES_FILE }).reattach!(description, ctx);
    expect(adopted).not.toBeNull();
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), 120_000);
    const receipt = await adopted!.watchReceipt!('k1', { signal: ac.signal }).finally(() => clearTimeout(timer));
    expect(receipt.kind).toBe('ok');
    expect(readFileSync(path.join(workspace, '.genswarms', 'turns', 'k1', 'reply.md'), 'utf8')).toBe('slow done');
    const logs = dockerCli(['service', 'logs', '--raw', description.swarmService!.serviceId]) ?? '';
    expect(logs.split('\n').filter((l) => l.trim() === 'answer k1')).toHaveLength(1);
  });
});
