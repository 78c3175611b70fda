/** Entry point: `node apps/server/dist/main.js`. Wiring only; see boot/run-main.ts. */
import { runMain } from './boot/run-main';

async function main(): Promise<void> {
  const server = await runMain({
    env: process.env,
    cwd: process.cwd(),
    uid: process.getuid?.() ?? 0,
    stdout: process.stdout,
    stderr: process.stderr,
    exit: (code) => process.exit(code),
  });
  if (server === undefined) return;
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
