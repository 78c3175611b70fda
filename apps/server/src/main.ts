/** Entry point: `node apps/server/dist/main.js`. Wiring only; see boot/run-main.ts and boot/take-secrets.ts. */
import { runMain } from './boot/run-main';
import { takeServerSecrets } from './boot/take-secrets';

async function main(): Promise<void> {
  // May re-execute this process (same pid) so that no secret stays in its initial environment.
  const secrets = await takeServerSecrets({ env: process.env, execPath: process.execPath, execArgv: process.execArgv, argv: process.argv });
  if (secrets.kind === 'refused') {
    process.stderr.write(`${secrets.line}\n`);
    process.exit(secrets.code);
  }
  if (secrets.warning !== undefined) process.stderr.write(`${secrets.warning}\n`);
  const server = await runMain({
    env: secrets.env,
    cwd: process.cwd(),
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
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
