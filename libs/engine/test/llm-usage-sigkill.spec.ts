/**
 * LLM counts survive a SIGKILL exactly: a real process metering calls into a real store is killed mid-stream;
 * on reopening, every call it announced is counted, none twice, and the usage totals, the budget counts and
 * the audit trail agree with each other (each step is one transaction).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildOnce } from '@genswarms/tools';
import { LLM_AUDIT_KEEP } from '../src/lib/store/llm-usage';
import { SqliteStore } from '../src/lib/store/sqlite-store';

const ENGINE_DIR = path.resolve(__dirname, '..');

/** Admits and settles calls forever, one line after each committed step (`a<i>` admitted, `s<i>` settled). */
const METERING_CHILD = `
const { SqliteStore } = require(process.argv[1]);
const store = SqliteStore.open(process.argv[2]);
const scopes = [{ scope: 'agent:a', windowStart: 1 }, { scope: 'swarm', windowStart: 1 }];
const entry = { at: new Date().toISOString(), method: 'POST', path: '/v1/chat/completions', status: 200, duration_ms: 5, bytes_in: 100, bytes_out: 200,
  prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, usage: 'reported' };
for (let i = 1; ; i++) {
  store.llmUsage.admit('s', 'a', scopes);
  process.stdout.write('a' + i + '\\n');
  store.llmUsage.settle('s', 'a', scopes, entry);
  process.stdout.write('s' + i + '\\n');
}
`;

describe('LLM usage across a SIGKILL', () => {
  let home = '';
  beforeAll(() => {
    const built = buildOnce([path.join(ENGINE_DIR, 'tsconfig.lib.json')]);
    if (built.kind !== 'ok') throw new Error(built.output);
  });
  beforeEach(() => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-llm-kill-')));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('keeps every announced call, counts none twice, and usage, budget counts and audit agree', async () => {
    const child = spawn(process.execPath, ['-e', METERING_CHILD, path.join(ENGINE_DIR, 'dist', 'index.js'), home], {
      shell: false,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (/\ns200\n/.test(out)) child.kill('SIGKILL');
      });
      child.on('exit', () => resolve());
    });
    expect(child.signalCode).toBe('SIGKILL');
    const lines = out.split('\n').filter((l) => l !== '');
    const last = (p: string): number => Math.max(...lines.filter((l) => l.startsWith(p)).map((l) => Number(l.slice(1))));
    const admitted = last('a');
    const settled = last('s');

    const store = SqliteStore.open(home);
    try {
      const usage = store.llmUsage.usage('s', 'a');
      // announced ⇒ committed; at most the one step after the last line committed unannounced
      expect(usage.requests === admitted || usage.requests === admitted + 1).toBe(true);
      const settledCount = usage.total_tokens / 15;
      expect(settledCount === settled || settledCount === settled + 1).toBe(true);
      expect(usage.requests - settledCount).toBeGreaterThanOrEqual(0);
      expect(usage.requests - settledCount).toBeLessThanOrEqual(1); // at most one call admitted, not yet settled
      const audit = store.llmUsage.listRequests('s', 'a', 2000);
      if (settledCount <= LLM_AUDIT_KEEP) expect(audit).toHaveLength(settledCount); // one audit entry per settled call, in its transaction
      expect(store.llmUsage.scope('s', 'agent:a')).toMatchObject({ requests: usage.requests, tokens: usage.total_tokens });
      expect(store.llmUsage.scope('s', 'swarm')).toMatchObject({ requests: usage.requests, tokens: usage.total_tokens });
    } finally {
      await store.close();
    }
    const again = SqliteStore.open(home); // a second restart changes nothing
    try {
      expect(again.llmUsage.usage('s', 'a').requests).toBeGreaterThanOrEqual(admitted);
    } finally {
      await again.close();
    }
  });
});
