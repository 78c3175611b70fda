import type { CallArgs, OperationId, ResponseOf } from '@genswarms/client';
import type { CommandDeps } from '../cli/command-module';
import type { ApiAnswer } from './api-client';
import { failureOf, withNewline } from './respond';

/** One operation and its answer's text; `--json` prints the text of a failure, which becomes a CliError (401 → 4, else 1). */
export async function callOpWithText<Op extends OperationId>(
  deps: CommandDeps,
  op: Op,
  args: CallArgs<Op>,
  opts: { json: boolean },
): Promise<ApiAnswer<Op>> {
  try {
    return await deps.api().call(op, args);
  } catch (err) {
    throw failureOf(deps.ctx, err, opts.json);
  }
}

/** The success answer's text unparsed (a YAML snapshot); a failure as {@link callOp} (`--json` prints its text). */
export async function callOpText<Op extends OperationId>(
  deps: CommandDeps,
  op: Op,
  args: CallArgs<Op>,
  opts: { json: boolean },
): Promise<string> {
  try {
    return await deps.api().callText(op, args);
  } catch (err) {
    throw failureOf(deps.ctx, err, opts.json);
  }
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
