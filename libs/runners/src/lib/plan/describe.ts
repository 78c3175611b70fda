import { randomUUID } from 'node:crypto';
import type { LaunchPlan, SessionDescription } from '../port';
import { clientName, hasBypassFlag } from '../client/clients';
import { networkLabel } from '../network/network-policy';

/** A fresh session id (opaque, safe to store). */
export function newSessionId(): string {
  return randomUUID();
}

/** `unsafe_bypass_enabled` when the argv that will run switches the client's own safety off. */
export function bypassNotices(argv: readonly string[]): string[] {
  return hasBypassFlag(argv) ? ['unsafe_bypass_enabled'] : [];
}

/** Metadata safe to store and show: env *names* only, never values (docs/runners.md). */
export function describePlan(
  plan: LaunchPlan,
  extra: Partial<Pick<SessionDescription, 'pid' | 'containerId' | 'tmuxTarget'>> = {},
): SessionDescription {
  return {
    sessionId: plan.sessionId,
    backend: plan.spec.backend,
    ...(plan.spec.runner === undefined ? {} : { runner: plan.spec.runner }),
    network: networkLabel(plan.spec.network),
    client: clientName(plan.spec.client),
    ...extra,
    envNames: Object.keys(plan.env).sort(),
    workspace: plan.spec.workspace,
    stateDir: plan.stateDir,
    notices: [...plan.notices],
  };
}
