import type { TurnDelivery } from '../port';

/** docs/messaging.md: the text pasted into a TUI client for one turn. */
export function formatTuiDelivery(turn: TurnDelivery): string {
  const dir = `${turn.clientTurnsDir}/${turn.turnId}`;
  return [
    `[genswarms] turn ${turn.turnId} — message ${turn.seq} from ${turn.from}:`,
    turn.content,
    `When finished, write your reply to ${dir}/reply.md, then write {"v":1,"turn":"${turn.turnId}","status":"ok"} to ${dir}/done.json.`,
  ].join('\n');
}
