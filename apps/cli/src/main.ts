/** Entry point of `genswarms` (bin/genswarms.js requires dist/main.js). Wiring only. */
import { runCli } from './cli/run-cli';

void runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
}).then((code) => {
  process.exitCode = code;
});
