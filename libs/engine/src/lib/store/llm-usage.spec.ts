import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LLM_AUDIT_KEEP, type NewLlmRequestEntry } from './llm-usage';
import { SqliteStore } from './sqlite-store';

const entry = (n: number): NewLlmRequestEntry => ({
  at: new Date(1_700_000_000_000 + n).toISOString(),
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  duration_ms: 1,
  bytes_in: 10,
  bytes_out: 20,
  prompt_tokens: 2,
  completion_tokens: 1,
  total_tokens: 3,
  usage: 'reported',
});

describe('LlmUsageTable (real SQLite)', () => {
  let home: string;
  let store: SqliteStore;
  beforeEach(() => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-llm-usage-')));
    store = SqliteStore.open(home);
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('keeps the newest LLM_AUDIT_KEEP entries per agent, pages back by id, and leaves the totals whole', () => {
    const t = store.llmUsage;
    for (let i = 1; i <= LLM_AUDIT_KEEP + 100; i++) {
      t.admit('s', 'a', []);
      t.settle('s', 'a', [], entry(i));
    }
    t.settle('s', 'b', [], entry(0));
    const all = t.listRequests('s', 'a', 5000);
    expect(all.length).toBeGreaterThanOrEqual(LLM_AUDIT_KEEP);
    expect(all.length).toBeLessThan(LLM_AUDIT_KEEP + 32); // trimmed every 32 entries
    expect(all[0]?.at).toBe(entry(LLM_AUDIT_KEEP + 100).at); // newest first
    const page = t.listRequests('s', 'a', 10, all[4]?.id);
    expect(page.map((e) => e.id)).toEqual(all.slice(5, 15).map((e) => e.id));
    expect(t.usage('s', 'a')).toEqual({ requests: 1100, refused: 0, prompt_tokens: 2200, completion_tokens: 1100, total_tokens: 3300 });
    expect(t.listRequests('s', 'b', 10)).toHaveLength(1); // another agent's trail is its own
  });

  it('starts a scope from zero in a later window and re-arms its exhaustion report', () => {
    const t = store.llmUsage;
    const w1 = { scope: 'agent:a', windowStart: 1000 };
    t.admit('s', 'a', [w1]);
    expect(t.refuse('s', 'a', { ...entry(1), status: 429, refused_by: 'budget' }, w1)).toBe(true);
    expect(t.refuse('s', 'a', { ...entry(2), status: 429, refused_by: 'budget' }, w1)).toBe(false); // reported once
    t.admit('s', 'a', [{ scope: 'agent:a', windowStart: 61_000 }]);
    expect(t.scope('s', 'agent:a')).toEqual({ windowStart: 61_000, requests: 1, tokens: 0, exhaustedNotified: false });
    t.admit('s', 'a', [w1]); // a late call of the old window counts in the current one
    expect(t.scope('s', 'agent:a')).toMatchObject({ windowStart: 61_000, requests: 2 });
  });

  it('is purged with the swarm, and kept by a data reset without purge', async () => {
    store.llmUsage.settle('s', 'a', [{ scope: 'swarm', windowStart: 1 }], entry(1));
    await store.deleteSwarmData('s', { purge: false });
    expect(store.llmUsage.usage('s', 'a').total_tokens).toBe(3);
    await store.deleteSwarmData('s', { purge: true });
    expect(store.llmUsage.usage('s', 'a').total_tokens).toBe(0);
    expect(store.llmUsage.scope('s', 'swarm')).toBeNull();
    expect(store.llmUsage.listRequests('s', 'a', 10)).toEqual([]);
  });
});
