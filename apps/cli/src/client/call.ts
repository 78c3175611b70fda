import type { CallArgs, OperationId, ResponseOf } from '@genswarms/client';
import type { CommandDeps } from '../cli/command-module';
import type { ApiAnswer } from './api-client';
import { failureOf, withNewline } from './respond';

/** `pending` with a failed call as the CLI reports it: `--json` prints the failure's text, which becomes a CliError (401 → 4, else 1). */
async function reported<T>(deps: CommandDeps, json: boolean, pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (err) {
    throw failureOf(deps.ctx, err, json);
  }
}

/** One operation and its answer's text (a failure as {@link callOp}). */
export async function callOpWithText<Op extends OperationId>(
  deps: CommandDeps,
  op: Op,
  args: CallArgs<Op>,
  opts: { json: boolean },
): Promise<ApiAnswer<Op>> {
  return reported(deps, opts.json, deps.api().call(op, args));
}

/** The success answer's text unparsed (a YAML snapshot); a failure as {@link callOp}. */
export async function callOpText<Op extends OperationId>(
  deps: CommandDeps,
  op: Op,
  args: CallArgs<Op>,
  opts: { json: boolean },
): Promise<string> {
  return reported(deps, opts.json, deps.api().callText(op, args));
}

/** One operation through the CLI contract: `--json` prints the answer unchanged (success and error); resolves to the typed body. */
export async function callOp<Op extends OperationId>(
  deps: CommandDeps,
  op: Op,
  args: CallArgs<Op>,
  opts: { json: boolean },
): Promise<ResponseOf<Op>> {
  const answer = await callOpWithText(deps, op, args, opts);
  if (opts.json) deps.ctx.stdout.write(withNewline(answer.text));
  return answer.body;
}
