/**
 * host_nix under real bwrap (docs/runners.md "host_nix"): the sandbox sees the Nix closure (read-only) and the
 * minimum the launcher needs, never the host's /usr, /bin, /lib* or /etc; and a turn completes with a /bin/sh
 * protocol client running from the closure's static busybox. The closure is made offline with `nix-store --add`.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext, RunnerHandle } from '../../src/index';
import { createBwrapRunner } from '../../src/index';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec, waitForFile } from '../support';
import { addBusyboxClosure, nixSkipReason, nixStoreBinary } from './nix-closure-support';
import { waitFor } from '@genswarms/test-kit';

const skip = haveBinary('bwrap') ? nixSkipReason() : 'bubblewrap is not installed';
if (skip !== undefined) console.warn(`SKIPPED nix-closure-bwrap: ${skip}`);
const suite = skip === undefined ? describe : describe.skip;

suite('host_nix bwrap sandbox (real Nix closure, real bubblewrap)', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  let pkg: string;
  const nixStore = nixStoreBinary() ?? '';
  beforeAll(() => {
    pkg = addBusyboxClosure(nixStore);
  });
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 500 });
    handle = undefined;
    dirs.cleanup();
  });

  const nixCtx = (): RunnerContext => {
    const ctx = makeContext(dirs.home);
    return { ...ctx, binaries: { ...ctx.binaries, nixStore } };
  };

  it('binds only the closure (ro), the launcher tools from it, and the agent dirs: no host /usr, /bin, /lib*, /etc', async () => {
    // the probe is the client under test (a sandboxed program), not a shell string of ours
    const probe = [
      `PATH=${pkg}/bin`,
      'exec > /workspace/probe.txt 2>&1',
      'echo "root=$(ls -a / | sort | tr "\\n" " ")"',
      'echo "bin=$(ls -a /bin | sort | tr "\\n" " ")"',
      'echo "store=$(ls -a /nix/store | sort | tr "\\n" " ")"',
      'for p in /usr /usr/bin /lib /lib64 /etc /etc/passwd /etc/ssl /sbin; do [ -e "$p" ] && echo "present=$p"; done',
      `touch ${pkg}/pwned 2>/dev/null && echo closure=writable || echo closure=readonly`,
      'touch /bin/pwned 2>/dev/null && echo bin=writable || echo bin=readonly',
      'touch /workspace/w && echo workspace=writable',
      'touch /tmp/t && touch /root/r && echo tmp-root=writable',
      'touch /pwned 2>/dev/null && echo slash=writable || echo slash=readonly',
      'echo done',
    ].join('\n');
    const runner = createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      network: 'none',
      workspace: dirs.workspace,
      client: { command: [`${pkg}/bin/sh`, '-c', probe] },
      config: { client_source: 'host_nix', nix_package: pkg },
    });
    handle = await runner.start(runner.plan(spec, nixCtx()), nixCtx());
    const out = await waitForFile(path.join(dirs.workspace, 'probe.txt'));
    await waitFor(() => readLines(dirs.workspace).includes('done'), 'the done line');
    const lines = readLines(dirs.workspace);
    const field = (key: string): string => (lines.find((l) => l.startsWith(`${key}=`)) ?? '').slice(key.length + 1).trim();
    expect(field('root').split(' ')).toEqual(['.', '..', 'bin', 'dev', 'nix', 'proc', 'root', 'run', 'tmp', 'workspace']);
    expect(field('bin').split(' ')).toEqual(['.', '..', 'env', 'rm', 'sh']);
    expect(field('store').split(' ')).toEqual(['.', '..', path.basename(pkg)]);
    expect(lines.filter((l) => l.startsWith('present='))).toEqual([]);
    expect(field('closure')).toBe('readonly');
    expect(lines).toContain('bin=readonly');
    expect(lines).toContain('slash=readonly');
    expect(lines).toContain('workspace=writable');
    expect(lines).toContain('tmp-root=writable');
    expect(out.length).toBeGreaterThan(0);
  });

  it('completes a turn with a /bin/sh protocol client running from the closure', async () => {
    const runner = createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      network: 'none',
      workspace: dirs.workspace,
      // PATH is the launcher's base (only /bin exists); the client under test puts its own store bin dir first
      client: { command: [`${pkg}/bin/sh`, '-c', 'PATH=$0:$PATH; exec sh "$1"', `${pkg}/bin`, `${pkg}/bin/gs-turn-client`] },
      config: { client_source: 'host_nix', nix_package: pkg, env: { MY_SECRET: 'abc' } },
    });
    handle = await runner.start(runner.plan(spec, nixCtx()), nixCtx());
    const turnDir = path.join(dirs.workspace, '.genswarms', 'turns', 't1');
    const inbox = path.join(dirs.workspace, '.inbox');
    for (const d of [path.join(dirs.workspace, '.genswarms'), path.join(dirs.workspace, '.genswarms', 'turns'), turnDir, inbox]) {
      mkdirSync(d, { recursive: true });
      chmodSync(d, 0o777);
    }
    writeFileSync(path.join(inbox, '.0001.tmp'), JSON.stringify({ turn: 't1', content: 'hello nix' }));
    renameSync(path.join(inbox, '.0001.tmp'), path.join(inbox, '0001.json'));
    expect(JSON.parse(await waitForFile(path.join(turnDir, 'done.json')))).toEqual({ v: 1, turn: 't1', status: 'ok' });
    expect(await waitForFile(path.join(turnDir, 'reply.md'))).toBe('echo: hello nix (secret 3)');
  });
});

function readLines(workspace: string): string[] {
  try {
    return readFileSync(path.join(workspace, 'probe.txt'), 'utf8').split('\n');
  } catch {
    return []; // expected: not written yet
  }
}
