import type { IrError } from '../state/types';
import { isRecord, own } from '../state/types';

/** Schemes whose refs name content by digest and so must say whether it is data or code. */
export const CONTENT_ADDRESSED_SCHEMES: readonly string[] = ['swarmidx', 'oci'];
/** Refs that may be a bare word (no scheme). */
export const BARE_REFS: readonly string[] = ['local', 'bwrap', 'tmux', 'mock', 'ssh', 'apple_container', 'swarm'];
export const DIGEST_RE = /^[a-z0-9]+:[0-9a-f]+$/;

/** Scheme of a ref string: text before the first `:`, or the bare word itself. */
export function refScheme(ref: string): string {
  const i = ref.indexOf(':');
  return i < 0 ? ref : ref.slice(0, i);
}

/** `<scheme>:<body>` with both parts non-empty, or a bare backend word. */
export function isValidRefString(ref: string): boolean {
  const i = ref.indexOf(':');
  if (i < 0) return BARE_REFS.includes(ref);
  return i > 0 && i < ref.length - 1;
}

function checkShape(x: Record<string, unknown>): IrError | null {
  const ref = own(x, 'ref');
  if (ref === undefined || ref === null || (typeof ref === 'string' && ref.trim() === '')) return { code: 'missing_ref' };
  if (typeof ref !== 'string' || !isValidRefString(ref)) return { code: 'invalid_ref_string' };
  const scheme = refScheme(ref);
  const kind = own(x, 'kind');
  if (CONTENT_ADDRESSED_SCHEMES.includes(scheme) && kind === undefined) return { code: 'missing_kind', scheme };
  if (kind !== undefined && kind !== 'data' && kind !== 'code') return { code: 'invalid_kind' };
  const host = own(x, 'host');
  if (scheme === 'ssh' && (typeof host !== 'string' || host.trim() === '')) return { code: 'missing_host' };
  const image = own(x, 'image');
  if (image !== undefined && (typeof image !== 'string' || image === '')) return { code: 'invalid_image' };
  if (own(x, 'opts') !== undefined && !isRecord(own(x, 'opts'))) return { code: 'invalid_opts' };
  const attested = own(x, 'attested');
  if (attested !== undefined && typeof attested !== 'boolean') return { code: 'invalid_attested' };
  return null;
}

function checkDigest(x: Record<string, unknown>, resolved: boolean): IrError | null {
  const digest = own(x, 'digest');
  const addressed = CONTENT_ADDRESSED_SCHEMES.includes(refScheme(x['ref'] as string));
  if (digest !== undefined && (typeof digest !== 'string' || !DIGEST_RE.test(digest))) return { code: 'invalid_digest' };
  if (!resolved) return null;
  if (addressed && digest === undefined) return { code: 'missing_digest' };
  if (!addressed && digest !== undefined) return { code: 'unexpected_digest' };
  return null;
}

/**
 * docs/ir.md, checks in order: ref, scheme, kind, host, image, opts, attested, then digest.
 * `resolved` demands the resolved form (digest exactly on content-addressed refs).
 */
export function validateRef(x: unknown, opts: { resolved?: boolean } = {}): IrError | null {
  if (!isRecord(x)) return { code: 'ref_not_an_object' };
  return checkShape(x) ?? checkDigest(x, opts.resolved === true);
}
