/**
 * The few workspace operations the Docker archive API cannot do (rename, remove), as an `exec` of a constant
 * binary with an argv array: no shell, `--` before the operands, operands validated by the caller. The
 * container's own binaries are as untrusted as the agent: a broken `mv` only breaks that agent's own mailbox,
 * and every byte the engine reads still goes through the bounded tar reader.
 */
import type { Container } from 'dockerode';
import { RunnerError } from '../errors/runner-error';

/** An exec that has not exited within this is abandoned (its process is the container's business). */
export const ARCHIVE_EXEC_TIMEOUT_MS = 15_000;
/** Output of an exec we drain and drop (mv/rm print a line at most). */
const EXEC_OUTPUT_MAX_BYTES = 65_536;

function failed(message: string, details: Record<string, unknown>, cause?: unknown): RunnerError {
  return new RunnerError('remote_transport_failed', message, { details, ...(cause === undefined ? {} : { cause }) });
}

async function drained(stream: NodeJS.ReadableStream, signal: AbortSignal): Promise<void> {
  let seen = 0;
  await new Promise<void>((resolve, reject) => {
    const done = (): void => resolve();
    stream.on('data', (c: Buffer) => {
      seen += c.length;
      if (seen > EXEC_OUTPUT_MAX_BYTES) (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
    });
    stream.once('end', done);
    stream.once('close', done);
    stream.once('error', reject);
    signal.addEventListener('abort', () => reject(new Error('exec timed out')), { once: true });
  });
}

/** Runs `argv` (argv[0] absolute) in `container` as `user`; resolves on exit status 0, else throws `remote_transport_failed`. */
export async function execArgv(
  container: Container,
  argv: readonly string[],
  user: string,
  timeoutMs = ARCHIVE_EXEC_TIMEOUT_MS,
): Promise<void> {
  const verb = argv[0] ?? '';
  if (!verb.startsWith('/')) throw new RunnerError('invalid_argv', 'exec needs an absolute binary');
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    const exec = await container.exec({ Cmd: [...argv], User: user, AttachStdout: true, AttachStderr: true, Tty: false });
    const stream = (await exec.start({ hijack: true, stdin: false })) as NodeJS.ReadableStream & { destroy(): void };
    try {
      await drained(stream, ctl.signal);
    } finally {
      stream.destroy();
    }
    for (;;) {
      const info = await exec.inspect();
      if (!info.Running) {
        if (info.ExitCode === 0) return;
        throw failed(`${verb} exited with status ${String(info.ExitCode)} in the container`, { verb, exit: info.ExitCode });
      }
      if (ctl.signal.aborted) throw failed(`${verb} did not exit in the container within ${timeoutMs} ms`, { verb });
      await new Promise((r) => setTimeout(r, 20));
    }
  } catch (e) {
    if (e instanceof RunnerError) throw e;
    throw failed(`${verb} could not run in the container`, { verb }, e);
  } finally {
    clearTimeout(timer);
  }
}
