/**
 * The run channel's report is the only source of the remote process a stop may signal: exactly one well-formed
 * `genswarms-ssh-run leader <pid> <starttime>` line, found after whatever a login shell printed, within bounds.
 */
import { PassThrough } from 'node:stream';
import type { ClientChannel } from 'ssh2';
import { readRemoteLeader } from '../../src/lib/ssh/remote-leader';

/** A stand-in for the run channel (a stream of what the remote side printed). */
function channelFed(chunks: readonly string[], end: boolean): ClientChannel {
  const ch = new PassThrough();
  setImmediate(() => {
    for (const c of chunks) ch.write(c);
    if (end) ch.destroy();
  });
  return ch as unknown as ClientChannel;
}

describe('readRemoteLeader', () => {
  test.each<[string, string[], { pid: number; startTime: string }]>([
    ['the report alone', ['genswarms-ssh-run leader 4242 987654\n'], { pid: 4242, startTime: '987654' }],
    ['split across chunks', ['genswarms-ssh-run lea', 'der 7 1', '2\n'], { pid: 7, startTime: '12' }],
    ['after a login shell printed lines', ['Welcome!\nlast login: never\n', 'genswarms-ssh-run leader 9 3\n'], { pid: 9, startTime: '3' }],
    ['with more output after it', ['genswarms-ssh-run leader 5 6\ngenswarms-ssh-run leader 1 1\n'], { pid: 5, startTime: '6' }],
  ])('reads %s', async (_what, chunks, leader) => {
    await expect(readRemoteLeader(channelFed(chunks, false), 2000)).resolves.toEqual(leader);
  });

  test.each<[string, string[], boolean, RegExp]>([
    ['a channel that closes first', [], true, /closed first/],
    ['a report with pid 0', ['genswarms-ssh-run leader 0 5\n'], true, /closed first/],
    ['a report with a negative pid', ['genswarms-ssh-run leader -1 5\n'], true, /closed first/],
    ['a report with shell syntax', ['genswarms-ssh-run leader 5 6;reboot\n'], true, /closed first/],
    ['a pid past 10 digits', ['genswarms-ssh-run leader 12345678901 5\n'], true, /closed first/],
    ['a report without its newline', ['genswarms-ssh-run leader 5 6'], true, /closed first/],
    ['more than 4 KiB of other output', ['x'.repeat(5000), '\ngenswarms-ssh-run leader 5 6\n'], false, /reported no process/],
    ['silence', [], false, /in time/],
  ])('refuses %s (start_failed)', async (_what, chunks, end, reason) => {
    const read = readRemoteLeader(channelFed(chunks, end), 300);
    await expect(read).rejects.toMatchObject({ code: 'start_failed', message: expect.stringMatching(reason) });
  });
});
