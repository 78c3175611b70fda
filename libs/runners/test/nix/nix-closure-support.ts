import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The ssh specs' /bin/sh protocol client (docs/receipts.md), copied into the closure as `bin/gs-turn-client`. */
const SH_CLIENT = path.join(__dirname, '..', 'ssh', 'fixtures', 'sh-client.sh');
/** Debian's busybox-static: one statically linked binary, so its store path is a whole closure on its own. */
export const STATIC_BUSYBOX = '/bin/busybox';
const NIX_STORE_CANDIDATES = ['/usr/bin/nix-store', '/nix/var/nix/profiles/default/bin/nix-store'];

/** Why the Nix specs cannot run here (visible skip reason), or undefined. */
export function nixSkipReason(): string | undefined {
  if (nixStoreBinary() === undefined) return 'nix-store is not installed (Debian nix-bin)';
  if (!existsSync(STATIC_BUSYBOX)) return 'busybox-static is not installed';
  if (process.getuid?.() !== 0) return 'the single-user Nix store is root-owned: needs root';
  return undefined;
}

export function nixStoreBinary(): string | undefined {
  return NIX_STORE_CANDIDATES.find((p) => existsSync(p));
}

/**
 * A one-path closure made offline with `nix-store --add` (content-addressed: the same bytes give the same
 * path, so re-running is idempotent): `bin/busybox`, an applet symlink per name, and `bin/gs-turn-client`.
 */
export function addBusyboxClosure(nixStore: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gs-nix-'));
  const pkg = path.join(dir, 'gs-busybox-client');
  try {
    mkdirSync(path.join(pkg, 'bin'), { recursive: true });
    const bin = path.join(pkg, 'bin');
    copyFileSync(STATIC_BUSYBOX, path.join(bin, 'busybox'));
    chmodSync(path.join(bin, 'busybox'), 0o555);
    for (const applet of [
      'sh',
      'env',
      'rm',
      'sed',
      'mv',
      'sleep',
      'ls',
      'cat',
      'printf',
      'touch',
      'mkdir',
      'head',
      'tr',
      'ln',
      'mkfifo',
      'sort',
    ]) {
      symlinkSync('busybox', path.join(bin, applet));
    }
    copyFileSync(SH_CLIENT, path.join(bin, 'gs-turn-client'));
    chmodSync(path.join(bin, 'gs-turn-client'), 0o555);
    const out = spawnSync(nixStore, ['--add', pkg], { shell: false, encoding: 'utf8', env: {}, stdio: ['ignore', 'pipe', 'pipe'] });
    if (out.status !== 0) throw new Error(`nix-store --add failed: ${out.stderr}`);
    return out.stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
