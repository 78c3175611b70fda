/** docs/messaging.md: an agent asks an object; the reply envelope is written safely to W/.inbox/replies/<corr>.json. */
import { writeFileUnder } from '@genswarms/receipts';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { announceDelivered, logAndAnnounce, type RoutingHost } from './router';
import { isSystemObject } from './topology';

export const CORRELATION_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;
export const REPLY_MAX_AGE_MS = 60 * 60 * 1000;
export const INBOX_DIR = '.inbox';
const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;
export const REPLIES_DIR = 'replies';

export type ErrorType = 'unknown' | 'transient' | 'permanent';

export interface AskEnvelope {
  readonly ok: boolean;
  readonly result: unknown;
  readonly error: null | { readonly code: string; readonly message: string; readonly type: string };
  readonly timeout: false;
  readonly correlation_id: string;
  readonly duration_ms: number;
}

export function isCorrelationId(value: unknown): value is string {
  return typeof value === 'string' && CORRELATION_ID_RE.test(value) && value !== '.' && value !== '..';
}

function failure(corr: string, code: string, message: string, type: ErrorType, durationMs = 0): AskEnvelope {
  return { ok: false, result: null, error: { code, message, type }, timeout: false, correlation_id: corr, duration_ms: durationMs };
}

/** Maps a handler reply onto the envelope table (truthy `error` → failure). */
export function envelopeFromReply(corr: string, reply: unknown, durationMs: number): AskEnvelope {
  const err = typeof reply === 'object' && reply !== null ? (reply as { error?: unknown }).error : undefined;
  if (err === undefined || err === null || err === false || err === '' || err === 0) {
    return { ok: true, result: reply ?? null, error: null, timeout: false, correlation_id: corr, duration_ms: durationMs };
  }
  if (typeof err === 'object') {
    const e = err as { code?: unknown; message?: unknown; type?: unknown };
    const code = typeof e.code === 'string' ? e.code : 'unknown';
    return failure(
      corr,
      code,
      typeof e.message === 'string' ? e.message : code,
      (typeof e.type === 'string' ? e.type : 'unknown') as ErrorType,
      durationMs,
    );
  }
  const code = String(err);
  return failure(corr, code, code, 'unknown', durationMs);
}

export interface AskInput {
  readonly from: string;
  readonly to: string;
  readonly content: string;
  readonly replyTo: unknown;
  readonly turn: string | null;
  readonly workspaceReal: string;
}

async function computeEnvelope(host: RoutingHost, input: AskInput, corr: string): Promise<AskEnvelope> {
  const kindOf = (n: string): ReturnType<RoutingHost['kindOf']> => host.kindOf(n);
  if (!host.topology.hasEdge(input.from, input.to) && !isSystemObject(input.to, kindOf)) {
    await host.events.emit({
      type: 'invalid_route',
      swarm: host.swarm,
      agent: input.from,
      message: `Ask ${input.from} → ${input.to} is not in the topology.`,
      metadata: { from: input.from, to: input.to, allowed_targets: host.topology.targets(input.from), type: 'ask' },
    });
    return failure(corr, 'route_denied', 'no edge to this object', 'permanent');
  }
  const kind = host.kindOf(input.to);
  if (kind === undefined) return failure(corr, 'target_not_found', 'no such node', 'permanent');
  if (kind === 'agent') return failure(corr, 'not_an_object', 'asks go to objects only', 'permanent');
  const obj = host.object(input.to);
  if (obj === undefined) return failure(corr, 'target_not_found', 'no such node', 'permanent');
  await logAndAnnounce(host, { from: input.from, to: input.to, content: input.content, turn: input.turn }, 'ask');
  const started = Date.now();
  const out = await obj.ask({ swarm: host.swarm, object: obj.name, from: input.from, content: input.content, type: 'ask' });
  switch (out.kind) {
    case 'error_state':
      return failure(corr, 'object_error_state', 'the object is in error state', 'transient');
    case 'failed':
      await host.events.emit({
        type: 'object_error',
        swarm: host.swarm,
        agent: obj.name,
        message: `Object ${obj.name} failed to answer an ask.`,
        metadata: { error: out.error },
      });
      return failure(corr, 'handler_error', 'the handler threw', 'unknown', Date.now() - started);
    case 'ok':
      await announceDelivered(host, { from: input.from, to: input.to, turn: input.turn }, 'ask', { correlation_id: corr });
      return envelopeFromReply(corr, out.result.reply, Date.now() - started);
  }
}

/**
 * Removes reply entries older than one hour. `replies` (and `.inbox`) are agent-writable: the directory
 * is opened O_DIRECTORY|O_NOFOLLOW, must sit at exactly `dir` (/proc/self/fd, so no component is a
 * link), and is listed, lstat'ed and unlinked only through that descriptor — a `replies` or `.inbox`
 * swapped for a link after the write cannot make the host delete files elsewhere. Links are removed,
 * never followed; directories are left alone.
 */
export async function pruneReplies(dir: string, nowMs: number): Promise<void> {
  // best-effort: pruning is housekeeping; a replies dir that cannot be pinned is left alone
  const handle = await fsp.open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch(() => null);
  if (handle === null) return;
  try {
    const pinned = `/proc/self/fd/${handle.fd}`;
    // expected: an unreadable descriptor path fails the pin check (nothing pruned)
    if ((await fsp.readlink(pinned).catch(() => '')) !== dir) return;
    // best-effort: an unlistable replies dir is pruned on a later ask
    const names = await fsp.readdir(pinned, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
    for (const name of names) {
      const p = Buffer.concat([Buffer.from(`${pinned}/`), name]);
      // expected: an entry gone since the listing is skipped
      const st = await fsp.lstat(p).catch(() => undefined);
      // best-effort: a reply that cannot be deleted is tried again on the next prune
      if (st !== undefined && !st.isDirectory() && nowMs - st.mtimeMs > REPLY_MAX_AGE_MS) await fsp.unlink(p).catch(() => undefined);
    }
  } finally {
    await handle.close();
  }
}

export type AskOutcome = { kind: 'dropped' } | { kind: 'replied'; envelope: AskEnvelope; written: boolean };

/** Runs one ask; an invalid correlation id drops it (no file). */
export async function routeAsk(host: RoutingHost, input: AskInput): Promise<AskOutcome> {
  if (!isCorrelationId(input.replyTo)) {
    await host.events.emit({
      type: 'outbox_rejected',
      swarm: host.swarm,
      agent: input.from,
      message: 'Ask dropped: invalid correlation id.',
      metadata: { reason: 'invalid_correlation_id', to: input.to },
    });
    return { kind: 'dropped' };
  }
  const corr = input.replyTo;
  const envelope = await computeEnvelope(host, input, corr);
  // Every directory below the (verified) workspace is pinned on the way down: nothing lands outside it.
  const written =
    (await writeFileUnder(input.workspaceReal, [INBOX_DIR, REPLIES_DIR], `${corr}.json`, JSON.stringify(envelope))).kind === 'ok';
  const repliesDir = path.join(input.workspaceReal, INBOX_DIR, REPLIES_DIR);
  if (written) await pruneReplies(repliesDir, host.clock.now().getTime());
  return { kind: 'replied', envelope, written };
}
