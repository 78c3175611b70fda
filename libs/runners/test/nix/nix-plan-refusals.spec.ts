/**
 * host_nix plan refusals (docs/runners.md "host_nix"): a nix_package or requisite that is missing, outside
 * /nix/store, or a symlink leaving it, and a closure without the launcher's tools → `nix_path_invalid` at plan;
 * no nix-store on the server's PATH → `validation_failed`. Nothing is started.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { createBwrapRunner, RunnerError } from '../../src/index';
import { makeContext, makeSandboxDirs, makeSpec } from '../support';
import { addBusyboxClosure, nixSkipReason, nixStoreBinary } from './nix-closure-support';

const skip = nixSkipReason();
if (skip !== undefined) console.warn(`SKIPPED nix-plan-refusals (store-backed cases): ${skip}`);
const withStore = skip === undefined ? describe : describe.skip;

let dirs: ReturnType<typeof makeSandboxDirs>;
beforeEach(() => {
  dirs = makeSandboxDirs();
});
afterEach(() => dirs.cleanup());

function planCode(nixPackage: string | undefined, nixStore: string | undefined, network: 'none' | 'isolated' = 'none'): string {
  const base = makeContext(dirs.home, { llm: { defaultEndpoint: 'http://127.0.0.1:9/v1', allowedHosts: [] } });
  const { nixStore: _found, ...others } = base.binaries;
  const ctx = { ...base, binaries: nixStore === undefined ? others : { ...others, nixStore } };
  const spec = makeSpec({
    backend: 'bwrap',
    network,
    workspace: dirs.workspace,
    client: { command: ['/bin/sh'] },
    config: { client_source: 'host_nix', ...(nixPackage === undefined ? {} : { nix_package: nixPackage }) },
  });
  try {
    createBwrapRunner().plan(spec, ctx);
  } catch (err) {
    if (err instanceof RunnerError) return err.code;
    throw err;
  }
  return 'planned';
}

describe('host_nix: nix_package paths refused before any store query', () => {
  it.each([
    ['missing', undefined],
    ['a host directory', '/usr/bin'],
    ['the store itself', '/nix/store/'],
    ['dot-dot out of the store', '/nix/store/../../etc'],
    ['dot-dot inside the store', '/nix/store/abc/../def'],
    ['NUL', '/nix/store/abc\0def'],
    ['newline', '/nix/store/abc\ndef'],
    ['relative', 'nix/store/abc-pkg'],
    ['__proto__', '/nix/store/__proto__'],
    ['a store path that does not exist', '/nix/store/00000000000000000000000000000000-gs-absent'],
  ])('refuses %s with nix_path_invalid', (_name, nixPackage) => {
    expect(planCode(nixPackage, nixStoreBinary() ?? '/usr/bin/nix-store')).toBe('nix_path_invalid');
  });
});

withStore('host_nix: store-backed refusals (real nix-store)', () => {
  const nixStore = nixStoreBinary() ?? '';
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'gs-nix-hostile-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const add = (p: string): string => {
    const out = spawnSync(nixStore, ['--add', p], { shell: false, encoding: 'utf8', env: {}, stdio: ['ignore', 'pipe', 'pipe'] });
    if (out.status !== 0) throw new Error(`nix-store --add failed: ${out.stderr}`);
    return out.stdout.trim();
  };

  it('refuses a store path that is a symlink leaving the store', () => {
    const link = path.join(scratch, 'gs-escape');
    symlinkSync('/etc', link);
    expect(planCode(add(link), nixStore)).toBe('nix_path_invalid');
  });

  it('refuses a directory in /nix/store that the store does not know', () => {
    const fake = '/nix/store/00000000000000000000000000000000-gs-unregistered';
    mkdirSync(fake, { recursive: true });
    try {
      expect(planCode(fake, nixStore)).toBe('nix_path_invalid');
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });

  it('refuses a closure without a shell for the launcher', () => {
    const pkg = path.join(scratch, 'gs-no-shell');
    mkdirSync(path.join(pkg, 'bin'), { recursive: true });
    writeFileSync(path.join(pkg, 'bin', 'client'), 'not a shell\n');
    expect(planCode(add(pkg), nixStore)).toBe('nix_path_invalid');
  });

  it('refuses isolated when the closure has no socat for the egress bridge', () => {
    expect(planCode(addBusyboxClosure(nixStore), nixStore, 'isolated')).toBe('nix_path_invalid');
  });

  it.each([
    ['a host agent_binary_path', { config: { agent_binary_path: '/bin/busybox' } }, 'nix_path_invalid'],
    ['the genswarms-agent client (host node)', { client: 'genswarms-agent' as const }, 'validation_failed'],
  ])('refuses %s with a valid closure', (_name, over, code) => {
    const pkg = addBusyboxClosure(nixStore);
    const ctx = makeContext(dirs.home);
    const spec = makeSpec({
      backend: 'bwrap',
      network: 'none',
      workspace: dirs.workspace,
      client: { command: [`${pkg}/bin/sh`] },
      ...over,
      config: { client_source: 'host_nix', nix_package: pkg, ...('config' in over ? over.config : {}) },
    });
    expect(() => createBwrapRunner().plan(spec, ctx)).toThrow(expect.objectContaining({ code }));
  });

  it('plans a valid closure, and refuses it with validation_failed when nix-store is not on the PATH', () => {
    const pkg = addBusyboxClosure(nixStore);
    expect(planCode(pkg, nixStore)).toBe('planned');
    expect(planCode(pkg, undefined)).toBe('validation_failed');
  });
});
