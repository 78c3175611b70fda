import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitFor } from '@genswarms/test-kit';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const REGISTER = path.join(ROOT, 'tools', 'jest', 'ts-register.cjs');
const SOCAT = ['/usr/bin/socat', '/bin/socat'].find((p) => existsSync(p));
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const suite = SOCAT !== undefined && SETPRIV !== undefined ? describe : describe.skip;
if (SOCAT === undefined || SETPRIV === undefined) console.warn('SKIPPED forwarder parent-death spec: socat or setpriv is not installed');

suite('forwarder: dies with the orchestrator', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'gs-egress-pd-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a SIGKILLed orchestrator leaves no socat forwarder behind', async () => {
    const dir = path.join(root, 'egress');
    const parent = spawn(
      process.execPath,
      [
        '--conditions=@genswarms/source',
        '--require',
        REGISTER,
        path.join(__dirname, 'fixtures', 'forwarder-parent.ts'),
        SOCAT as string,
        SETPRIV as string,
        dir,
        '9',
      ],
      {
        shell: false,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    parent.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    await waitFor(() => out.includes('\n'), 'the forwarder pid line', { timeoutMs: 20000 });
    const { pid } = JSON.parse(out.trim()) as { pid: number };
    expect(isAlive(pid)).toBe(true);
    parent.kill('SIGKILL');
    await waitFor(() => !isAlive(pid), `the forwarder (pid ${pid}) to die with its parent`, { timeoutMs: 10000 });
  });
});
