import type { ChatMessage } from '../llm/chat-client';
import { OPERATOR_SENDER } from '../config/names';

export interface PromptContext {
  readonly swarm: string;
  readonly agent: string;
  readonly topology: readonly string[];
}

/** System prompt: who the agent is, whom it may message, and the two message syntaxes. */
export function buildSystemPrompt(ctx: PromptContext): string {
  const where = ctx.swarm === '' ? '' : ` in the swarm "${ctx.swarm}"`;
  const lines = [`You are "${ctx.agent}", an agent${where} run by genswarms.`];
  if (ctx.topology.length === 0) {
    lines.push('You cannot message other agents: answer the task directly.');
  } else {
    lines.push(
      `You may send messages to: ${ctx.topology.join(', ')}. Anyone else is unreachable.`,
      'To send a one-line message, write a line of the form `@<name>: <text>`.',
      'For a longer message, write <<SWARM_MSG:TO=<name>:START>> on its own line, the message, then <<SWARM_MSG:END>>.',
      'To message all of them, use <<SWARM_MSG:BROADCAST:START>> ... <<SWARM_MSG:END>>.',
      'Everything outside those lines and blocks is your reply to the sender of the task.',
    );
  }
  return lines.join('\n');
}

/** Messages for one turn. Turns are independent (no history): a restarted agent answers the same way. */
export function buildMessages(ctx: PromptContext, item: { from: string; content: string }): ChatMessage[] {
  const user = item.from === OPERATOR_SENDER ? item.content : `Message from ${item.from}:\n\n${item.content}`;
  return [
    { role: 'system', content: buildSystemPrompt(ctx) },
    { role: 'user', content: user },
  ];
}
