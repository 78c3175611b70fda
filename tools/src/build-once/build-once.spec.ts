import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildOnce, REPO_ROOT } from './build-once';

const REGISTER = path.join(REPO_ROOT, 'tools', 'jest', 'ts-register.cjs');
const MODULE = path.join(__dirname, 'build-once.ts');

/** A tiny composite TypeScript project; `source` is its only file. */
function makeProject(root: string, source: string): string {
  const dir = path.join(root, 'proj');
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'src', 'a.ts'), source);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { composite: true, rootDir: 'src', outDir: 'dist', module: 'commonjs', target: 'es2022', types: [] },
      include: ['src'],
    }),
  );
  return path.join(dir, 'tsconfig.json');
}

/** buildOnce in another process (as another jest worker would call it). */
function buildInChild(tsconfig: string, lockDir: string): { child: ChildProcess; result: Promise<string> } {
  const script = `const r = require(${JSON.stringify(MODULE)}).buildOnce([${JSON.stringify(tsconfig)}], { lockDir: ${JSON.stringify(lockDir)} }); process.stdout.write(r.kind);`;
  const child = spawn(process.execPath, ['--conditions=@genswarms/source', '--require', REGISTER, '-e', script], {
    cwd: REPO_ROOT,
    shell: false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', () => resolve(out));
  });
  return { child, result };
}

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8', shell: false });
  return Number(r.stdout);
}

describe('buildOnce: tsc -b serialised by a lock directory', () => {
  let root: string;
  let lockDir: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'gs-build-once-'));
    lockDir = path.join(root, 'locks', 'build.lock');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds, and releases the lock', () => {
    const tsconfig = makeProject(root, 'export const a: number = 1;\n');
    expect(buildOnce([tsconfig], { lockDir })).toEqual({ kind: 'ok' });
    expect(existsSync(path.join(root, 'proj', 'dist', 'a.js'))).toBe(true);
    expect(existsSync(lockDir)).toBe(false);
  });

  it('reports a failed build with the compiler output, and still releases the lock', () => {
    const tsconfig = makeProject(root, 'export const a: number = "not a number";\n');
    const r = buildOnce([tsconfig], { lockDir });
    expect(r.kind).toBe('failed');
    expect(r.kind === 'failed' ? r.output : '').toContain('TS2322');
    expect(existsSync(lockDir)).toBe(false);
  });

  it('waits while a live process holds the lock, then builds', async () => {
    const tsconfig = makeProject(root, 'export const a = 2;\n');
    mkdirSync(lockDir, { recursive: true });
    writeFileSync(path.join(lockDir, 'owner'), String(process.pid)); // held by this (live) test process
    const { child, result } = buildInChild(tsconfig, lockDir);
    await new Promise((r) => setTimeout(r, 1500));
    expect(child.exitCode).toBeNull(); // still waiting: it cannot build while the lock is held
    expect(existsSync(path.join(root, 'proj', 'dist', 'a.js'))).toBe(false);
    rmSync(lockDir, { recursive: true, force: true });
    expect(await result).toBe('ok');
    expect(existsSync(path.join(root, 'proj', 'dist', 'a.js'))).toBe(true);
  }, 60_000);

  it.each([
    ['a dead owner pid', (): string => String(deadPid())],
    ['a garbage owner', (): string => 'not-a-pid'],
  ])(
    'takes over a lock left by a crashed holder (%s)',
    async (_name, owner) => {
      const tsconfig = makeProject(root, 'export const a = 3;\n');
      mkdirSync(lockDir, { recursive: true });
      writeFileSync(path.join(lockDir, 'owner'), owner());
      expect(await buildInChild(tsconfig, lockDir).result).toBe('ok');
      expect(existsSync(lockDir)).toBe(false);
    },
    60_000,
  );
});
