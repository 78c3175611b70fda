/**
 * The swarm agent's receipt watcher: an exec in its task's container, on the node's engine, of
 * `<node> -e <genswarms-receipt-watch> -- /workspace` as the agent's user (argv array, no shell, the script's constant
 * bytes as one word), its stdin and stdout held open on the hijacked exec stream. What it prints wakes the handle and
 * carries the receipt's bytes as bounded frames (remote/receipt-push.ts, receipt-frames.ts), untrusted as the files;
 * anything wrong with them ends the watcher and the receipt is read through the archive API under the receipt rules.
 */
import type { Container } from 'dockerode';
import { LogDemuxer } from '../docker/log-demux';
import { receiptWatchSource, type WatcherStream } from '../remote/receipt-watch';

/** The node the watcher runs with: the agent image's (genswarms/agent and the test image have it there). An image
 * without it fails the exec: the handle polls as before and reports `receipt_push_lost` once. */
export const SWARM_WATCH_NODE = '/usr/bin/node';

type Duplex = NodeJS.ReadWriteStream & { destroy(): void };

/** Starts the watcher in `container` as `user` (`uid:gid`); rejects when the engine refuses the exec. */
export async function startSwarmWatcher(container: Container, user: string, node = SWARM_WATCH_NODE): Promise<WatcherStream> {
  const exec = await container.exec({
    Cmd: [node, '-e', receiptWatchSource(), '--', '/workspace'],
    User: user,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex;
  const data = new Set<(chunk: Buffer) => void>();
  const ends = new Set<(detail: string) => void>();
  let ended = false;
  const end = (detail: string): void => {
    if (ended) return;
    ended = true;
    for (const l of ends) l(detail);
  };
  // the engine frames the exec's output (stdout 1, stderr 2); stderr is dropped
  const demux = new LogDemuxer((kind, chunk) => {
    if (kind === 'stdout') for (const l of data) l(chunk);
  });
  stream.on('data', (chunk: Buffer) => demux.push(chunk));
  stream.on('end', () => end('the receipt watcher exited'));
  stream.on('close', () => end('the receipt watcher exited'));
  stream.on('error', (e: Error) => end(`the receipt watcher's stream failed (${e.message})`));
  return {
    write: (line) => void stream.write(line),
    close: () => stream.destroy(),
    onData: (l) => void data.add(l),
    onEnd: (l) => void ends.add(l),
  };
}
