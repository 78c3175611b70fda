import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { waitFor } from '@genswarms/test-kit';

/** Test harness: the real agent (TS source through ts-register.cjs) and the real mock-llm CLI, as processes. */
const REPO = resolve(__dirname, '..', '..', '..', '..');
const REGISTER = join(__dirname, '..', '..', '..', '..', 'tools', 'jest', 'ts-register.cjs');
const AGENT_MAIN = join(REPO, 'apps', 'agent', 'src', 'main.ts');
const MOCK_LLM_BIN = join(REPO, 'tools', 'bin', 'mock-llm.js');

/** How the mock LLM records a credential header value (tools: `redactedHeaderValue`); the key itself never is. */
export function recordedCredential(value: string): string {
  return `[redacted sha256:${createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 16)}]`;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | undefined>;
  readonly body: { model?: string; messages: Array<{ role: string; content: string }> };
}

export interface RunningProcess {
  readonly child: ChildProcess;
  readonly output: () => string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

function run(args: readonly string[], env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, [...args], { shell: false, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const exited = new Promise<number | null>((resolveExit, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolveExit(code));
  });
  return { child, output: () => output, exited };
}

const BASE_ENV = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };

/** Starts genswarms-agent with exactly `env` (plus PATH), like a runner does. */
export function startAgent(env: Record<string, string>): RunningProcess {
  return run(['--require', REGISTER, AGENT_MAIN], { ...BASE_ENV, ...env });
}

export interface MockLlmProcess extends RunningProcess {
  readonly url: string;
  requests(): Promise<RecordedRequest[]>;
}

/** Starts `tools/bin/mock-llm.js --port 0 ...` and waits for its listening line. */
export async function startMockLlm(args: readonly string[] = []): Promise<MockLlmProcess> {
  const proc = run([MOCK_LLM_BIN, '--port', '0', ...args], BASE_ENV);
  const url = await waitFor(
    unlessFatal(async () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(proc.output())?.[1], proc.output),
    () => `the mock LLM's listening line; output:\n${proc.output()}`,
  );
  return {
    ...proc,
    url,
    requests: async () => (await (await fetch(`${url}/__mock/requests`)).json()) as RecordedRequest[],
  };
}

/** SIGTERM, then the exit code. */
export async function stop(proc: RunningProcess | undefined): Promise<number | null> {
  if (proc === undefined) return null;
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGTERM');
  return proc.exited;
}

/** The kit's one polling helper, re-exported for the agent specs that import it from here. */
export { waitFor };

/** `probe`, but a process whose output says `fatal` ends the wait at once, with that output. */
export function unlessFatal<T>(probe: () => Promise<T>, output: () => string): () => Promise<T> {
  return async () => {
    if (output().includes('fatal')) throw new Error(`process failed:\n${output()}`);
    return probe();
  };
}

/** Writes an inbox item the way the engine does (temp + rename). */
export async function writeInboxItem(
  workspace: string,
  item: { seq: number; from?: string; content: string; turn: string },
): Promise<void> {
  const from = item.from ?? '_operator';
  const dir = join(workspace, '.inbox');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await mkdir(join(workspace, '.genswarms', 'turns', item.turn), { recursive: true, mode: 0o700 });
  const name = `${String(item.seq).padStart(4, '0')}_${from}.json`;
  const body = { from, content: item.content, seq: item.seq, timestamp: new Date().toISOString(), turn: item.turn };
  await writeFile(join(dir, `.${name}.tmp`), JSON.stringify(body), { mode: 0o600 });
  await rename(join(dir, `.${name}.tmp`), join(dir, name));
}

export function turnFile(workspace: string, turn: string, file: 'reply.md' | 'done.json'): string {
  return join(workspace, '.genswarms', 'turns', turn, file);
}

/** The parsed done.json once it exists. */
export async function waitForDone(workspace: string, turn: string, proc?: RunningProcess): Promise<Record<string, unknown>> {
  const output = (): string => proc?.output() ?? '';
  const text = await waitFor(
    unlessFatal(() => readFile(turnFile(workspace, turn, 'done.json'), 'utf8').catch(() => undefined), output),
    () => `${turn}/done.json; output:\n${output()}`,
  );
  return JSON.parse(text) as Record<string, unknown>;
}

/** Base agent env for a workspace. */
export function agentEnv(workspace: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    GENSWARMS_SWARM: 'test-swarm',
    GENSWARMS_AGENT: 'writer',
    GENSWARMS_WORKSPACE: workspace,
    GENSWARMS_TURNS_DIR: join(workspace, '.genswarms', 'turns'),
    SWARM_TOPOLOGY: 'critic,web-bot',
    ...extra,
  };
}
