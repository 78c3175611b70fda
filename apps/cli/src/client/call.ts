import type { CommandDeps } from '../cli/command-module';
import { handleResponse } from './respond';

/** One request through the CLI contract (`--json` passthrough, 401 → 4, other errors → 1). */
export async function callApi(deps: CommandDeps, method: string, path: string, opts: { body?: unknown; json: boolean }): Promise<unknown> {
  return handleResponse(deps.ctx, await deps.api().request(method, path, opts.body), opts.json);
}
