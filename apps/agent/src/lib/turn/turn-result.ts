/** How one inbox item ended (for the log line and the state watermark). */
export type TurnResult =
  | { kind: 'answered'; status: 'ok' | 'error'; outbox: number; detail?: string }
  | { kind: 'already_done' }
  | { kind: 'receipt_by_client' }
  | { kind: 'ended_meanwhile' }
  | { kind: 'aborted' };
