import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MOCK_LLM_BIN } from './mock-llm-bin';
import { parseMockLlmArgs } from './mock-llm-cli';

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
}

/** Spawns the real bin and resolves with the URL from its first stdout line. */
function startCli(args: readonly string[]): Promise<Started> {
  const child = spawn(process.execPath, [MOCK_LLM_BIN, ...args], { shell: false, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`mock-llm exited early with ${String(code)}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /mock-llm: listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m?.[1] !== undefined) resolve({ child, url: m[1] });
    });
  });
}

function runToExit(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MOCK_LLM_BIN, ...args], { shell: false, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('mock-llm CLI', () => {
  let dir = '';
  let started: Started | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mock-llm-cli-'));
  });
  afterEach(async () => {
    if (started !== undefined && started.child.exitCode === null) {
      started.child.removeAllListeners('exit');
      started.child.kill('SIGKILL');
    }
    started = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the scripted reply on port 0, exposes recorded requests and exits 0 on SIGTERM', async () => {
    const script = join(dir, 'script.json');
    await writeFile(script, JSON.stringify([{ match: 'ping', response: 'pong {{content}}' }]));
    started = await startCli(['--port', '0', '--script', script]);
    const res = await fetch(`${started.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: [{ role: 'user', content: 'ping' }] }),
    });
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]?.message.content).toBe('pong ping');
    const recorded = (await (await fetch(`${started.url}/__mock/requests`)).json()) as unknown[];
    expect(recorded).toHaveLength(1);
    const child = started.child;
    child.removeAllListeners('exit');
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  test.each([
    ['a non-numeric port', ['--port', '80; rm -rf /']],
    ['a port over 65535', ['--port', '70000']],
    ['an unknown flag', ['--evil']],
    ['a missing script file', ['--script', '/nonexistent/script.json']],
  ])('exits 2 with one stderr line on %s', async (_name, args) => {
    const { code, stderr } = await runToExit(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^mock-llm: .+\n$/);
  });

  it('exits 2 on a script that is not valid', async () => {
    const script = join(dir, 'bad.json');
    await writeFile(script, JSON.stringify([{ match: '/(/', response: 'x' }]));
    expect((await runToExit(['--script', script])).code).toBe(2);
  });

  it('parses defaults', () => {
    expect(parseMockLlmArgs([])).toEqual({ port: 0, host: '127.0.0.1', scriptFile: undefined, delayMs: 0 });
  });
});
