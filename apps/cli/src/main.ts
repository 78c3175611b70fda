/** Entry point of `genswarms` (bin/genswarms.js requires dist/main.js). Wiring only. */
import { execWithSecrets } from '@genswarms/procctl';
import type { CliContext } from './cli/context';
import { exitQuietlyOnBrokenPipe } from './cli/broken-pipe';
import { lazyInterruptSignal } from './cli/interrupt';
import { runCli } from './cli/run-cli';

exitQuietlyOnBrokenPipe(process.stdout, (code) => process.exit(code));
const interruptSignal = lazyInterruptSignal(process);
const ctx: CliContext = {
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  replaceProcess: execWithSecrets,
  get signal(): AbortSignal {
    return interruptSignal();
  },
};

void runCli(process.argv.slice(2), ctx).then((code) => {
  process.exitCode = code;
});
