/**
 * `binary_missing` sentences an operator acts on: what was missing, where it was
 * looked for, what to do. The detail fields name the binary (and the PATH searched, or the package).
 */
import { RunnerError } from './runner-error';

/** A client executable that is not on the client's PATH (the PATH is config, never a secret). */
export function clientNotOnPath(name: string, searchPath: string, agent: string | undefined): RunnerError {
  return new RunnerError('binary_missing', `${name} not found on PATH (${searchPath}); install it or set client.command`, {
    ...(agent === undefined ? {} : { agent }),
    details: { binary: name, search_path: searchPath },
  });
}

/** A client named by an absolute path that is absent or not an executable file. */
export function clientNotExecutable(file: string, agent: string): RunnerError {
  return new RunnerError(
    'binary_missing',
    `${file} is missing or not an executable file; install it there or point client.command at an executable`,
    { agent, details: { binary: file } },
  );
}

/** A host tool a backend needs, resolved once on the server's PATH at boot. */
export function hostToolMissing(tool: string, aptPackage: string, agent: string | undefined, neededBy: string): RunnerError {
  return new RunnerError(
    'binary_missing',
    `${tool} not found on the server's PATH (searched at server start); ${neededBy} need it: install it (apt-get install ${aptPackage}) and restart the server`,
    { ...(agent === undefined ? {} : { agent }), details: { binary: tool, package: aptPackage } },
  );
}
