/**
 * The files a turn exchanges with a remote ssh client: the generic remote-workspace port
 * (../remote/remote-workspace.ts) over the SFTP transport. The engine keeps writing and reading the agent's LOCAL
 * workspace; inbox goes up, outbox and the turn's receipt come down, each remote file read under the receipt
 * rules (docs/receipts.md "Remote receipts") and only verified bytes mirrored.
 */
import type { SFTPWrapper } from 'ssh2';
import type { TurnReceipt } from '@genswarms/receipts';
import * as port from '../remote/remote-workspace';
import {
  REMOTE_MAILBOX_FILE_MAX_BYTES,
  REMOTE_OUTBOX_BATCH,
  type RemoteWorkspaceOptions,
  type RemoteWorkspaceTransport,
} from '../remote/workspace-port';
import { sftpTransport } from './sftp-transport';

export { SSH_OPEN_TIMEOUT_MS } from './sftp-transport';
/** Cap on one inbox or outbox file moved over SFTP (the engine's own outbox bound). */
export const SSH_MAILBOX_FILE_MAX_BYTES = REMOTE_MAILBOX_FILE_MAX_BYTES;
/** Outbox files pulled per poll (the rest wait for the next poll). */
export const SSH_OUTBOX_BATCH = REMOTE_OUTBOX_BATCH;

export interface RemoteWorkspace {
  readonly sftp: () => Promise<SFTPWrapper>;
  /** The remote workspace (absolute, generated name). */
  readonly remote: string;
  /** The local mirror the engine reads and writes (its real path). */
  readonly local: string;
  /** The ssh user's uid on the remote host. */
  readonly uid: number;
}

function parts(rw: RemoteWorkspace): [RemoteWorkspaceTransport, RemoteWorkspaceOptions] {
  return [sftpTransport(rw.sftp, rw.uid), { remote: rw.remote, local: rw.local }];
}

/** Uploads local inbox files (and ask replies) the remote side does not have yet; `sent` remembers name → size:mtime. */
export function pushInbox(rw: RemoteWorkspace, sent: Map<string, string>): Promise<void> {
  return port.pushInbox(...parts(rw), sent);
}

/** Creates the remote turn directory chain (0700 each) the client writes its receipt into. */
export function prepareRemoteTurnDir(rw: RemoteWorkspace, turnId: string): Promise<void> {
  return port.prepareTurnDir(...parts(rw), turnId);
}

/** Moves remote `.outbox/*.json` into the local `.outbox`; refused remote files are removed and named in the result. */
export function pullOutbox(rw: RemoteWorkspace): Promise<{ moved: number; refused: string[] }> {
  return port.pullOutbox(...parts(rw));
}

/** One look at the remote receipt of `turnId` (pending, refused, or verified and parsed locally). */
export function readRemoteReceipt(rw: RemoteWorkspace, turnId: string): Promise<TurnReceipt> {
  return port.readReceipt(...parts(rw), turnId);
}
