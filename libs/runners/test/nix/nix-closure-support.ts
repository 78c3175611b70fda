import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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
 * path, so re-running is idempotent): `bin/busybox`, an applet symlink per name, and the `gs-turn-client`
 * /bin/sh protocol client (docs/receipts.md) that answers each inbox file of the workspace.
 */
export function addBusyboxClosure(nixStore: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gs-nix-'));
  const pkg = path.join(dir, 'gs-busybox-client');
  try {
    mkdirSync(path.join(pkg, 'bin'), { recursive: true });
    const bin = path.join(pkg, 'bin');
    copyFileSync(STATIC_BUSYBOX, path.join(bin, 'busybox'));
    chmodSync(path.join(bin, 'busybox'), 0o555);
    for (const applet of ['sh', 'env', 'rm', 'sed', 'mv', 'sleep', 'ls', 'cat', 'printf', 'touch', 'mkdir']) {
      symlinkSync('busybox', path.join(bin, applet));
    }
    writeFileSync(path.join(bin, 'gs-turn-client'), TURN_CLIENT, { mode: 0o555 });
    const out = spawnSync(nixStore, ['--add', pkg], { shell: false, encoding: 'utf8', env: {}, stdio: ['ignore', 'pipe', 'pipe'] });
    if (out.status !== 0) throw new Error(`nix-store --add failed: ${out.stderr}`);
    return out.stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Answers every `.inbox/*.json` turn: reply.md then done.json, each renamed into place. Tools from its own store path only. */
const TURN_CLIENT = `#!/bin/sh
set -u
PATH=\${0%/*}
ws=$GENSWARMS_WORKSPACE
while :; do
  for f in "$ws"/.inbox/*.json; do
    [ -f "$f" ] || continue
    turn=$(sed -n 's/.*"turn":"\\([a-z0-9_-]*\\)".*/\\1/p' "$f")
    content=$(sed -n 's/.*"content":"\\([^"]*\\)".*/\\1/p' "$f")
    mv -f "$f" "$f.seen"
    d="$ws/.genswarms/turns/$turn"
    printf 'nix echo: %s' "$content" > "$d/.reply.tmp" && mv "$d/.reply.tmp" "$d/reply.md"
    printf '{"v":1,"turn":"%s","status":"ok"}' "$turn" > "$d/.done.tmp" && mv "$d/.done.tmp" "$d/done.json"
  done
  sleep 0.05
done
`;
