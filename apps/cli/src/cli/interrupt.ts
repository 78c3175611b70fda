/**
 * An AbortSignal that SIGINT/SIGTERM abort, created on first use: commands that never follow a
 * stream keep Node's default signal behaviour (immediate exit).
 */
export function lazyInterruptSignal(proc: NodeJS.EventEmitter): () => AbortSignal {
  let controller: AbortController | undefined;
  return () => {
    if (controller === undefined) {
      const c = new AbortController();
      controller = c;
      const stop = (): void => c.abort();
      proc.once('SIGINT', stop);
      proc.once('SIGTERM', stop);
    }
    return controller.signal;
  };
}
