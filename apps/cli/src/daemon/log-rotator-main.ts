/**
 * `node log-rotator-main.js <log file> <max bytes> <files>`: copies stdin into a size-rotated log until
 * the writers (the detached server's stdout and stderr) close it. Started by `genswarms up` detached.
 */
import { openRotatingLog } from './rotating-log';

function main(argv: readonly string[]): void {
  const [file, maxBytes, keep] = argv;
  if (file === undefined || !/^[0-9]+$/.test(maxBytes ?? '') || !/^[0-9]+$/.test(keep ?? '')) {
    process.stderr.write('usage: log-rotator-main <log file> <max bytes> <files>\n');
    process.exit(2);
  }
  const log = openRotatingLog(file, { maxBytes: Number(maxBytes), keep: Number(keep) });
  process.stdin.on('data', (chunk: Buffer) => {
    try {
      log.write(chunk);
    } catch {
      // best-effort: a full disk or a failed rotation drops these lines; dying would close the pipe and
      // make the server's next write fail (EPIPE)
    }
  });
  process.stdin.on('end', () => log.close());
  // the terminal `up` ran in may go away; the server's output must still be written
  process.on('SIGHUP', () => undefined);
}

main(process.argv.slice(2));
