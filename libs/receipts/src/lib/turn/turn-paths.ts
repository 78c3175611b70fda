import { join } from 'node:path';
import { assertRealPathForm } from '../fs/path-rules';
import { assertTurnId } from '../turn-id/turn-id';

/** Receipt file names inside a turn directory. */
export const DONE_FILE = 'done.json';
export const REPLY_FILE = 'reply.md';

/** The turn directory's components below W: `.genswarms`, `turns`, `<id>`. The id is validated first. */
export function turnDirComponents(turnId: string): readonly string[] {
  assertTurnId(turnId);
  return ['.genswarms', 'turns', turnId];
}

/**
 * The directories checked for a turn, root first: W, W/.genswarms, W/.genswarms/turns,
 * W/.genswarms/turns/<id>. The id is validated before it is joined into any path.
 */
export function turnDirChain(workspaceReal: string, turnId: string): readonly string[] {
  assertRealPathForm(workspaceReal, 'workspaceReal');
  const components = turnDirComponents(turnId);
  return [workspaceReal, ...components.map((_, i) => join(workspaceReal, ...components.slice(0, i + 1)))];
}
