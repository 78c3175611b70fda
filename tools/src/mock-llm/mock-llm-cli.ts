import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseMockScript } from './mock-script';
import type { MockScriptEntry } from './mock-script';
import { startMockLlm } from './mock-llm-server';
import type { MockLlm } from './mock-llm-server';

/** Largest script file the CLI reads (bytes). */
export const MOCK_SCRIPT_FILE_MAX_BYTES = 1024 * 1024;

export interface MockLlmCliOptions {
  readonly port: number;
  readonly host: string;
  readonly scriptFile?: string;
  readonly delayMs: number;
}

/** Parses `--port N --host H --script FILE --delay-ms N`; throws Error with a usage message. */
export function parseMockLlmArgs(argv: readonly string[]): MockLlmCliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: { port: { type: 'string' }, host: { type: 'string' }, script: { type: 'string' }, 'delay-ms': { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  return {
    port: parseIntOption('--port', values.port ?? '0', 65535),
    host: values.host ?? '127.0.0.1',
    scriptFile: values.script,
    delayMs: parseIntOption('--delay-ms', values['delay-ms'] ?? '0', 600_000),
  };
}

function parseIntOption(name: string, raw: string, max: number): number {
  if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) > max) throw new Error(`${name} must be an integer 0..${max}`);
  return Number(raw);
}

/** Reads and validates a JSON script file `[{match, response, status?}]`. */
export async function loadScriptFile(file: string): Promise<MockScriptEntry[]> {
  const text = await readFile(file, 'utf8');
  if (Buffer.byteLength(text) > MOCK_SCRIPT_FILE_MAX_BYTES) throw new Error('script file too large');
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    throw new Error('script file is not valid JSON');
  }
  const parsed = parseMockScript(raw);
  if (parsed.kind === 'invalid') throw new Error(`invalid script: ${parsed.reason}`);
  return parsed.script;
}

/** CLI entry: starts the server, prints `mock-llm: listening on <url>`, closes on SIGTERM/SIGINT. */
export async function runMockLlmCli(argv: readonly string[]): Promise<number> {
  let server: MockLlm;
  try {
    const options = parseMockLlmArgs(argv);
    const script = options.scriptFile === undefined ? [] : await loadScriptFile(options.scriptFile);
    server = await startMockLlm({ port: options.port, host: options.host, script, delayMs: options.delayMs });
  } catch (error) {
    process.stderr.write(`mock-llm: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  process.stdout.write(`mock-llm: listening on ${server.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  return 0;
}
