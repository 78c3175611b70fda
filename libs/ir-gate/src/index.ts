/** @genswarms/ir-gate: Swarm config schema, IR, fold/materialize/compact, op policy, reconcile, the gate. */
export const PACKAGE_NAME = '@genswarms/ir-gate';
