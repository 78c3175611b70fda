/**
 * The mock's coding-agent behaviour: a prompt that names a genswarms turn (the TUI delivery text of
 * docs/messaging.md) is answered with ONE shell tool call that writes the turn's receipt, and the tool's
 * result is answered with a final text. Pure: no I/O.
 */

/** `[genswarms] turn <id> — …` (first line of the TUI delivery text). */
const TURN_HEADER_RE = /\[genswarms\] turn ([a-z0-9_-]{1,64}) /;
/** `… write your reply to <turns>/<id>/reply.md, …` (last line of the TUI delivery text). */
const REPLY_PATH_RE = /write your reply to (\S+)\/reply\.md,/;
/** A turn directory we are willing to put in a shell command: absolute, plain characters, no `..`. */
const SAFE_DIR_RE = /^\/[A-Za-z0-9._/-]{1,1024}$/;
/** `SEND_TO:<agent>:<text to end of line>` in the task: also write one outbox message. */
const SEND_TO_RE = /SEND_TO:([a-zA-Z][a-zA-Z0-9_-]{0,63}):([^\n]{1,4096})/;
const TURNS_SUFFIX = '/.genswarms/turns/';

/** What the mock found in a prompt that names a turn. */
export interface TurnTask {
  readonly turnId: string;
  /** `<workspace>/.genswarms/turns/<turnId>`, as the client sees it. */
  readonly turnDir: string;
  /** The task text between the header line and the instruction line. */
  readonly content: string;
  readonly sendTo?: { readonly to: string; readonly content: string };
}

/** Reads the TUI delivery text in `prompt`; null when it names no turn or a path we will not quote. */
export function parseTurnTask(prompt: string): TurnTask | null {
  const header = TURN_HEADER_RE.exec(prompt);
  const reply = REPLY_PATH_RE.exec(prompt);
  if (header === null || reply === null) return null;
  const turnId = header[1] ?? '';
  const turnDir = reply[1] ?? '';
  if (!SAFE_DIR_RE.test(turnDir) || turnDir.split('/').includes('..')) return null;
  if (!turnDir.endsWith(`${TURNS_SUFFIX}${turnId}`)) return null;
  const lines = prompt.slice(header.index, reply.index).split('\n');
  const content = lines.slice(1, -1).join('\n').trim();
  const send = SEND_TO_RE.exec(content);
  return { turnId, turnDir, content, ...(send === null ? {} : { sendTo: { to: send[1] ?? '', content: send[2] ?? '' } }) };
}

/** `reply.md` as the mock writes it. */
export function mockReplyText(task: TurnTask): string {
  return `mock reply to turn ${task.turnId}: ${task.content}\n`;
}

/** The final text after the tool result came back. */
export function mockFinalText(turnId: string | undefined): string {
  return turnId === undefined ? 'mock: done' : `mock: turn ${turnId} done`;
}

/**
 * The POSIX shell command the mock asks the client to run (the clients' shell tools take one string, so
 * this is the one place a shell string is unavoidable). Every variable part is base64 or a path checked
 * by SAFE_DIR_RE and single-quoted; each file is written to a dot-temp name and renamed, done.json last.
 */
export function buildReceiptCommand(task: TurnTask): string {
  const dir = quote(task.turnDir);
  const workspace = quote(task.turnDir.slice(0, task.turnDir.length - TURNS_SUFFIX.length - task.turnId.length));
  const done = JSON.stringify({ v: 1, turn: task.turnId, status: 'ok' });
  const steps = ['set -e', 'umask 077', `d=${dir}`, writeStep('"$d"', 'reply.md', mockReplyText(task))];
  if (task.sendTo !== undefined) {
    const message = JSON.stringify({ to: task.sendTo.to, content: task.sendTo.content });
    steps.push(`o=${workspace}/.outbox`, 'mkdir -p "$o"', writeStep('"$o"', `mock-${task.turnId}.json`, message));
  }
  steps.push(writeStep('"$d"', 'done.json', done));
  return steps.join('; ');
}

function writeStep(dirExpr: string, name: string, text: string): string {
  const b64 = Buffer.from(text, 'utf8').toString('base64');
  return `printf %s '${b64}' | base64 -d > ${dirExpr}/.${name}.tmp && mv -f ${dirExpr}/.${name}.tmp ${dirExpr}/${name}`;
}

function quote(word: string): string {
  return `'${word.split("'").join("'\\''")}'`;
}

/** A shell tool one of the clients offers, and how its arguments carry the command. */
export interface ShellTool {
  readonly name: string;
  arguments(command: string): Record<string, unknown>;
}

/** Known shell tools by name: Codex `exec_command` (and the older `shell`), Claude Code `Bash`, OpenCode `bash`. */
const SHELL_TOOLS: ReadonlyMap<string, (command: string) => Record<string, unknown>> = new Map<
  string,
  (command: string) => Record<string, unknown>
>([
  ['exec_command', (command: string) => ({ cmd: command })],
  ['shell', (command: string) => ({ command: ['bash', '-lc', command] })],
  ['Bash', (command: string) => ({ command, description: 'Write the genswarms turn receipt' })],
  ['bash', (command: string) => ({ command, description: 'Write the genswarms turn receipt' })],
]);

/** The first offered tool the mock knows how to call, in the order the client listed them. */
export function pickShellTool(offered: readonly string[]): ShellTool | null {
  for (const name of offered) {
    const build = SHELL_TOOLS.get(name);
    if (build !== undefined) return { name, arguments: build };
  }
  return null;
}

/** Protocol-neutral view of one request: what the mock needs to decide its answer. */
export interface Conversation {
  /** Text of each user message in order, tool results excluded (a message of only tool results gives none). */
  readonly userTexts: readonly string[];
  /** True when the newest input is a tool result (the mock's command ran): answer with the final text. */
  readonly endsWithToolResult: boolean;
  /** Names of the function tools offered, in request order. */
  readonly toolNames: readonly string[];
}

/** The mock's decision for one request; protocol modules render it. */
export type AgentAnswer =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tool_call'; readonly name: string; readonly arguments: Record<string, unknown> }
  | { readonly kind: 'http_error'; readonly status: number; readonly text: string; readonly retryAfter?: string };

/**
 * Tool result → final text; a newest user message naming a turn, with a known shell tool offered → the
 * receipt command; anything else → `fallback(newest user text)` (the script, or the echo).
 */
export function decideAgentAnswer(conversation: Conversation, fallback: (prompt: string) => AgentAnswer): AgentAnswer {
  const newest = conversation.userTexts[conversation.userTexts.length - 1] ?? '';
  if (conversation.endsWithToolResult) {
    const task = [...conversation.userTexts]
      .reverse()
      .map(parseTurnTask)
      .find((t) => t !== null);
    return { kind: 'text', text: mockFinalText(task?.turnId) };
  }
  const task = parseTurnTask(newest);
  const tool = pickShellTool(conversation.toolNames);
  if (task !== null && tool !== null) return { kind: 'tool_call', name: tool.name, arguments: tool.arguments(buildReceiptCommand(task)) };
  return fallback(newest);
}
