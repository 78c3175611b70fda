import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { get as httpGet } from 'node:http';
import * as path from 'node:path';

/** The real tools mock LLM (`tools/bin/mock-llm.js`), run as its own process. */
const MOCK_LLM_BIN = path.resolve(__dirname, '../../../../tools/bin/mock-llm.js');

/** Starts the mock LLM on 127.0.0.1:0 and resolves with its port once it prints its URL. */
export function startMockLlm(): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MOCK_LLM_BIN, '--port', '0', '--host', '127.0.0.1'], {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin' },
    });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m?.[1] !== undefined) resolve({ port: Number(m[1]), child });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`mock-llm exited early (${String(code)}): ${out}`)));
  });
}

/** Stops a mock LLM started by `startMockLlm` (SIGKILL, waits for the exit). */
export async function stopMockLlm(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

export function fetchJson(port: number, urlPath: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    httpGet({ host: '127.0.0.1', port, path: urlPath }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(JSON.parse(body)));
    }).on('error', reject);
  });
}
