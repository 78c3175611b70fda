/** `genswarms events | head`: a closed stdout ends the CLI quietly (exit 0) instead of an EPIPE crash. */
export function exitQuietlyOnBrokenPipe(stream: NodeJS.EventEmitter, exit: (code: number) => void): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') exit(0);
    else throw err;
  });
}
