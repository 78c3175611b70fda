import type { EgressTarget } from '@genswarms/egress';
import { isSafeTargetHost, planEgress } from '@genswarms/egress';
import type { LaunchPlan, RunnerContext, SessionEgressPin } from '../port';
import { endpointPolicyOf } from '../env/client-env';

/** Why a stored pin cannot be re-used after a restart (never includes the pin's own text). */
export type PinRefusal = 'egress_pin_missing' | 'egress_pin_malformed' | 'egress_pin_untrusted';

export type PinCheck = { kind: 'ok'; target: EgressTarget; pin: SessionEgressPin } | { kind: 'refused'; reason: PinRefusal };

const PIN_KEYS: readonly string[] = ['host', 'port', 'tls'];

/** The pin a session description records for an isolated agent: host, port and tls only (no key, no path). */
export function pinOfPlan(plan: LaunchPlan): SessionEgressPin | undefined {
  const egress = plan.egress;
  return egress === undefined ? undefined : { host: egress.host, port: egress.port, tls: egress.tls };
}

/**
 * Strict shape check of an untrusted stored pin (it comes back from the store as JSON): a plain object
 * with exactly `host` (plain hostname / IP literal, as the planner writes it), `port` (integer 1-65535)
 * and `tls` (boolean). Extra keys (`__proto__`, `url`...) refuse.
 */
export function parsePin(raw: unknown): SessionEgressPin | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const proto: unknown = Object.getPrototypeOf(raw);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const keys = Reflect.ownKeys(raw);
  if (keys.length !== PIN_KEYS.length || !keys.every((k) => typeof k === 'string' && PIN_KEYS.includes(k))) return undefined;
  const { host, port, tls } = raw as Record<string, unknown>;
  if (typeof host !== 'string' || host.length > 255 || !isSafeTargetHost(host)) return undefined;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  if (typeof tls !== 'boolean') return undefined;
  return { host, port, tls };
}

/**
 * Re-validates a stored pin against the CURRENT trust policy of `ctx`, with the very check a start
 * uses (`planEgress` on the pin's URL): the host must still be allowlisted, and planning must give
 * back exactly the stored host, port and tls. Pure.
 */
export function checkStoredPin(raw: unknown, ctx: RunnerContext): PinCheck {
  if (raw === undefined) return { kind: 'refused', reason: 'egress_pin_missing' };
  const pin = parsePin(raw);
  if (pin === undefined) return { kind: 'refused', reason: 'egress_pin_malformed' };
  const url = `${pin.tls ? 'https' : 'http'}://${pin.host}:${pin.port}/`;
  let target: EgressTarget;
  try {
    target = planEgress({ agentEndpoint: url, policy: endpointPolicyOf(ctx) });
  } catch {
    // expected: a pin the egress planner refuses is untrusted
    return { kind: 'refused', reason: 'egress_pin_untrusted' };
  }
  if (target.host !== pin.host || target.port !== pin.port || target.tls !== pin.tls)
    return { kind: 'refused', reason: 'egress_pin_malformed' };
  return { kind: 'ok', target, pin };
}
