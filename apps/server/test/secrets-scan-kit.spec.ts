/**
 * The scanners of the secrets scan (support/secrets-scan-kit.ts) report what they must: a canary in any of its
 * forms in a file, a process's argv (even an agent's own value) or environ (except the agent's own), a tmux
 * environment. Without this, "0 hits" in secrets-scan.spec.ts could mean a blind scanner.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './support/engine-server';
import { tempDir } from './support/harness';
import { canary, hitsIn, needlesOf, scanProcesses, scanTmux, scanTree } from './support/secrets-scan-kit';

const dir = tempDir('gs-scankit-');
const children: ChildProcess[] = [];
const TMUX = '/usr/bin/tmux';
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  spawnSync(TMUX, ['-S', join(dir.path, 'tmux.sock'), 'kill-server'], { shell: false, stdio: 'ignore' });
  dir.cleanup();
});

describe('secrets-scan kit: every form and place it claims to read is read', () => {
  it('finds a canary raw, in base64 at each offset, in hex and truncated, and nothing else', () => {
    const value = canary('kit');
    const c = { kit: value };
    for (let pad = 0; pad < 3; pad++) {
      const b64 = Buffer.from(`${'x'.repeat(pad)}${value}{"more":1}`).toString('base64');
      expect(hitsIn(`prefix ${b64} suffix`, 'b64', c)).toHaveLength(1);
    }
    expect(hitsIn(Buffer.from(value).toString('hex').toUpperCase(), 'hex', c)).toMatchObject([{ form: 'HEX' }]);
    expect(hitsIn(`key=${value.slice(0, -6)}…`, 'truncated', c)).toHaveLength(1);
    expect(hitsIn(JSON.stringify({ k: value }), 'json', c)).toMatchObject([{ form: 'raw' }]);
    expect(hitsIn(JSON.stringify({ k: '[REDACTED]' }), 'redacted', c)).toEqual([]);
    expect(hitsIn(value, 'allowed', c, new Set(['kit']))).toEqual([]);
    expect(needlesOf(value).length).toBeGreaterThanOrEqual(6);
  });

  it('finds a canary in a nested file and a link target, and lists an excepted file with what it holds', () => {
    const value = canary('file');
    const root = join(dir.path, 'tree');
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(join(root, 'a', 'b', 'db.bin'), Buffer.concat([Buffer.alloc(4096), Buffer.from(value), Buffer.alloc(10)]));
    symlinkSync(`/nowhere/${value}`, join(root, 'a', 'link'));
    writeFileSync(join(root, 'a', 'env'), `K=${value}\n`, { mode: 0o600 });
    const scan = scanTree(root, { file: value }, (p) => p.endsWith('/env'));
    expect(scan.hits.map((h) => h.where.replace(root, ''))).toEqual(expect.arrayContaining(['/a/b/db.bin', '/a/link (link target)']));
    expect(scan.excepted).toMatchObject([{ path: join(root, 'a', 'env'), mode: 0o600, holds: ['file'] }]);
  });

  it("finds a canary in any process's argv, and in environ unless the process is the agent given it", async () => {
    const own = canary('own');
    const other = canary('other');
    const inArgv = canary('argv');
    const keep = 'setInterval(() => undefined, 1 << 30)';
    const agent = spawn(process.execPath, ['-e', keep], {
      shell: false,
      stdio: 'ignore',
      env: { GENSWARMS_SWARM: 'kitswarm', GENSWARMS_AGENT: 'a', OWN: own, OTHER: other },
    });
    const stranger = spawn(process.execPath, ['-e', keep, inArgv], { shell: false, stdio: 'ignore', env: { OWN: own } });
    children.push(agent, stranger);
    const canaries = { own, other, argv: inArgv };
    const scan = await waitFor(
      async () => {
        const s = scanProcesses('kitswarm', canaries, (a) => new Set(a === 'a' ? ['own'] : []), new Set([process.pid]));
        return s.agentHeld.get('a')?.has('own') === true && s.hits.length >= 3 ? s : undefined;
      },
      'both processes up',
      { timeoutMs: 20_000 },
    );
    const at = (pid: number | undefined): string[] =>
      scan.hits
        .filter((h) => h.where.startsWith(`/proc/${String(pid)} `))
        .map((h) => `${h.canary} ${h.where.endsWith('environ') ? 'environ' : 'cmdline'}`)
        .sort();
    expect(at(agent.pid)).toEqual(['other environ']);
    expect(at(stranger.pid)).toEqual(['argv cmdline', 'own environ']);
  });

  it('finds a canary in a tmux session environment', () => {
    const value = canary('tmux');
    const sock = join(dir.path, 'tmux.sock');
    const t = (...a: string[]): number | null =>
      spawnSync(TMUX, ['-S', sock, ...a], { shell: false, stdio: 'ignore', env: { PATH: '/usr/bin:/bin' } }).status;
    expect(t('new-session', '-d', '-s', 'k', '/bin/sleep', '600')).toBe(0);
    expect(scanTmux(sock, { tmux: value }).hits).toEqual([]);
    expect(t('set-environment', '-t', 'k', 'K', value)).toBe(0);
    expect(scanTmux(sock, { tmux: value }).hits).toHaveLength(1);
  });
});
