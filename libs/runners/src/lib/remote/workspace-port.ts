/**
 * The remote-workspace port (docs/runners.md "Remote workspaces"): how a runner whose workspace is NOT on this
 * host's file system (ssh over SFTP, a container on another engine through the Docker archive API) exchanges the
 * turn files with the engine. The engine keeps reading and writing a LOCAL mirror of the workspace; the generic
 * logic (remote-workspace.ts) pushes `.inbox` up, pulls `.outbox` and the turn receipt down, and mirrors only
 * bytes that passed the receipt rules of @genswarms/receipts (docs/receipts.md "Remote receipts").
 *
 * CONTRACT for a transport (the only thing a backend implements):
 * - Paths are absolute POSIX paths on the remote side, built by the caller from generated names only.
 * - Every method throws on a TRANSPORT failure (link lost, engine unreachable, unexpected engine status): the
 *   caller retries or fails the turn. A hostile FILE is never a throw: `readBounded` returns a refusal.
 * - Files and directories are created with the transport's own owner (fixed when the transport is built: the ssh
 *   user's uid, the container user's uid:gid), files 0600, directories 0700.
 * - Nothing is followed through a symlink in the LAST component; `lstat` reports a link as `symlink`.
 */
import type { TurnReceipt } from '@genswarms/receipts';

/** What `lstat` reports; `other` = FIFO, socket, device. `mode` is the permission bits (& 0o7777). */
export interface RemoteFileStat {
  readonly kind: 'file' | 'dir' | 'symlink' | 'other';
  readonly size: number;
  readonly mode: number;
  readonly mtimeMs: number;
}

/** Why a remote file was refused: the file-level reasons of docs/receipts.md. */
export type RemoteReadRefusal = 'receipt_symlink' | 'receipt_not_regular' | 'receipt_too_large' | 'receipt_replaced';

export type RemoteRead =
  | { readonly kind: 'ok'; readonly data: Buffer }
  | { readonly kind: 'missing' }
  | { readonly kind: 'refused'; readonly reason: RemoteReadRefusal };

export interface RemoteWorkspaceTransport {
  /** lstat of `p` (never follows a final link); null when it does not exist. */
  lstat(p: string): Promise<RemoteFileStat | null>;
  /**
   * The whole content of `p` when it is a regular file of at most `max` bytes that did not change while read.
   * A link → `receipt_symlink`; FIFO/device/socket/dir → `receipt_not_regular`; over `max` → `receipt_too_large`;
   * size/mtime/type different between the stat and the read → `receipt_replaced`; absent → `missing`.
   * Never blocks on a FIFO, never reads more than about `max` bytes off the wire.
   */
  readBounded(p: string, max: number): Promise<RemoteRead>;
  /**
   * Creates `p` as a new regular file 0600 with `data` (a stale file of that name is replaced). No atomicity is
   * promised: the caller writes a temporary name and `rename`s it into place.
   */
  writeNewFile(p: string, data: Buffer): Promise<void>;
  /** Renames `from` to `to` in the same directory, replacing `to` (rename(2) semantics). */
  rename(from: string, to: string): Promise<void>;
  /** The entry names of directory `p` (no `.`/`..`); [] when it does not exist. */
  readdir(p: string): Promise<string[]>;
  /** Removes the FILE `p` (never a directory); absent is not an error. */
  remove(p: string): Promise<void>;
  /**
   * A private directory at `p`: created 0700 when missing, then checked — a directory (not a link), no
   * group/world bits, ours where the transport can tell. Anything else throws RunnerError `state_dir_unsafe`
   * (never chmod'ed into shape).
   */
  ensurePrivateDir(p: string): Promise<void>;
}

/** Where the two sides of one agent's workspace are. */
export interface RemoteWorkspaceOptions {
  /** The remote workspace (absolute POSIX path, generated name). */
  readonly remote: string;
  /** The local mirror the engine reads and writes (its real path). */
  readonly local: string;
}

/** Cap on one inbox or outbox file moved through a transport (the engine's own outbox bound). */
export const REMOTE_MAILBOX_FILE_MAX_BYTES = 1_048_576;
/** Outbox files pulled per poll (the rest wait for the next poll). */
export const REMOTE_OUTBOX_BATCH = 64;

/**
 * One agent's remote workspace as the runner handle sees it (built by `remoteWorkspace(transport, opts)` in
 * remote-workspace.ts). One instance per session: it remembers which inbox files it already sent.
 */
export interface RemoteWorkspace {
  /** Uploads local `.inbox/*.json` and `.inbox/replies/*.json` files the remote side does not have yet (temp + rename). */
  pushInbox(): Promise<void>;
  /**
   * Moves remote `.outbox/*.json` into the local `.outbox` (each read under the receipt rules, then removed
   * remotely). Refused names are returned, never mirrored: the caller reports them.
   */
  pullOutbox(): Promise<{ readonly moved: number; readonly refused: readonly string[] }>;
  /** Creates the remote `.genswarms/turns/<turnId>` chain (0700 each) the client writes its receipt into. */
  prepareTurnDir(turnId: string): Promise<void>;
  /**
   * One look at the turn's remote receipt: `pending` while `done.json` is absent; a refusal for a link,
   * FIFO/device/dir, oversize or replaced-while-read file; otherwise the verified bytes are written into the local
   * turn directory and parsed there by readTurnReceipt (so a malformed receipt is refused exactly as locally).
   */
  readReceipt(turnId: string): Promise<TurnReceipt>;
  /**
   * A receipt whose bytes came from elsewhere than the transport (the receipt watcher's frames): the same bounds, the
   * same local mirror and the same parser as `readReceipt` after its reads. Over a bound → `receipt_too_large`.
   */
  acceptReceipt(turnId: string, files: { readonly done: Buffer; readonly reply: Buffer | null }): Promise<TurnReceipt>;
}
