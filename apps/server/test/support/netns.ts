import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const IP = '/usr/sbin/ip';

function run(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(IP, [...args], { shell: false, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => resolve({ code: -1, stderr: String(err) }));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** A private network namespace joined to the host by a veth pair: host side `hostIp`, inside `nsIp`. */
export interface TestNetns {
  readonly name: string;
  readonly hostIp: string;
  readonly nsIp: string;
  destroy(): Promise<void>;
}

/** Creates the namespace, or returns the reason it cannot (the caller skips loudly). */
export async function createTestNetns(): Promise<TestNetns | { unavailable: string }> {
  if (!existsSync(IP)) return { unavailable: `${IP} not found` };
  const r = Math.floor(Math.random() * 200) + 20;
  const tag = `${process.pid % 10000}${r}`;
  const name = `gs-test-${tag}`;
  const hostIf = `gsh${tag}`.slice(0, 15);
  const nsIf = `gsn${tag}`.slice(0, 15);
  const hostIp = `10.231.${r}.1`;
  const nsIp = `10.231.${r}.2`;
  const steps: string[][] = [
    ['netns', 'add', name],
    ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf],
    ['link', 'set', nsIf, 'netns', name],
    ['addr', 'add', `${hostIp}/30`, 'dev', hostIf],
    ['link', 'set', hostIf, 'up'],
    ['netns', 'exec', name, IP, 'addr', 'add', `${nsIp}/30`, 'dev', nsIf],
    ['netns', 'exec', name, IP, 'link', 'set', nsIf, 'up'],
    ['netns', 'exec', name, IP, 'link', 'set', 'lo', 'up'],
  ];
  const destroy = async (): Promise<void> => {
    await run(['link', 'del', hostIf]);
    await run(['netns', 'del', name]);
  };
  for (const step of steps) {
    const res = await run(step);
    if (res.code !== 0) {
      await destroy();
      return { unavailable: `ip ${step.join(' ')} failed: ${res.stderr.trim()}` };
    }
  }
  return { name, hostIp, nsIp, destroy };
}

/** A long-lived client process inside the namespace; `send` performs one HTTP request or socket.io connect. */
export interface RemoteAgent {
  send(cmd: Record<string, unknown>): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export function startRemoteAgent(ns: TestNetns): Promise<RemoteAgent> {
  const script = join(__dirname, 'remote-agent.cjs');
  const child: ChildProcess = spawn(IP, ['netns', 'exec', ns.name, process.execPath, script, require.resolve('socket.io-client')], {
    shell: false,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = new Map<number, (v: Record<string, unknown>) => void>();
  let nextId = 1;
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`remote agent exited ${code}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const msg = JSON.parse(line) as Record<string, unknown>;
      if (msg['ready'] === true) {
        resolve({
          send: (cmd) =>
            new Promise((res) => {
              const id = nextId++;
              waiting.set(id, res);
              child.stdin!.write(`${JSON.stringify({ ...cmd, id })}\n`);
            }),
          stop: () =>
            new Promise((res) => {
              if (child.exitCode !== null) return res();
              child.once('exit', () => res());
              child.kill('SIGTERM');
            }),
        });
        return;
      }
      waiting.get(msg['id'] as number)?.(msg);
      waiting.delete(msg['id'] as number);
    });
  });
}
