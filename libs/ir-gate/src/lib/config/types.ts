/** One schema problem: a dotted path (`agents.0.name`) and a message that never echoes values. */
export type ConfigIssue = { path: string; message: string };
