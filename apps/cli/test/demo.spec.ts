import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

// `npm run demo` end to end (builds, mock LLM, server, three genswarms-agents, routed messages, down).
const ROOT = resolve(__dirname, '..', '..', '..');
const DEMO = join(ROOT, 'tools', 'demo', 'run-demo.cjs');

describe('npm run demo', () => {
  it('runs the three-agent demo end to end and stops the server (exit 0)', () => {
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: process.env['HOME'] ?? '/root',
      LANG: 'C.UTF-8',
    };
    const r = spawnSync(process.execPath, [DEMO], { cwd: ROOT, env, encoding: 'utf8', timeout: 240_000 });
    const out = `${r.stdout}\n${r.stderr}`;
    expect({ status: r.status, tail: out.slice(-3000) }).toMatchObject({ status: 0 });
    expect(out).toMatch(/planner → worker-a: /);
    expect(out).toMatch(/planner → worker-b: /);
    expect(out).toMatch(/worker-a → planner: /);
    expect(out).toMatch(/worker-b → planner: /);
    expect(out).toContain('[demo] demo finished: OK');
    expect(out).toContain('genswarms: stopped');
  }, 300_000);
});
