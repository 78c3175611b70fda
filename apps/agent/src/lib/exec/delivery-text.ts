/**
 * The turn text a coding client gets (docs/messaging.md "What an agent sees"): the same three lines the
 * runners paste into a pane (`formatTuiDelivery` of @genswarms/runners; a spec holds the two equal — the
 * agent ships alone and cannot import it).
 */
export interface DeliveredTurn {
  readonly turnId: string;
  readonly seq: number;
  readonly from: string;
  readonly content: string;
  /** The turns directory as the client sees it (GENSWARMS_TURNS_DIR). */
  readonly clientTurnsDir: string;
}

export function formatDeliveryText(turn: DeliveredTurn): string {
  const dir = `${turn.clientTurnsDir}/${turn.turnId}`;
  return [
    `[genswarms] turn ${turn.turnId} — message ${turn.seq} from ${turn.from}:`,
    turn.content,
    `When finished, write your reply to ${dir}/reply.md, then write {"v":1,"turn":"${turn.turnId}","status":"ok"} to ${dir}/done.json.`,
  ].join('\n');
}
