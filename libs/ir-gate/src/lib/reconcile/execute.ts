import type { ReconcileAction } from './plan';

/** What the executor drives; the engine implements it. */
export interface ReconcilePort {
  startAgent(name: string): Promise<void>;
  stopAgent(name: string): Promise<void>;
  startObject(name: string): Promise<void>;
  stopObject(name: string): Promise<void>;
  addEdge(from: string, to: string): Promise<void>;
  removeEdge(from: string, to: string): Promise<void>;
}

export type ReconcileOutcome = { kind: 'ok'; done: number } | { kind: 'failed'; done: number; action: ReconcileAction; error: unknown };

async function runAction(port: ReconcilePort, a: ReconcileAction): Promise<void> {
  switch (a.type) {
    case 'start_agent':
      return port.startAgent(a.name);
    case 'start_object':
      return port.startObject(a.name);
    case 'restart_agent':
      await port.stopAgent(a.name);
      return port.startAgent(a.name);
    case 'restart_object':
      await port.stopObject(a.name);
      return port.startObject(a.name);
    case 'add_edge':
      return port.addEdge(a.from, a.to);
    case 'remove_edge':
      return port.removeEdge(a.from, a.to);
    case 'stop_agent':
      return port.stopAgent(a.name);
    case 'stop_object':
      return port.stopObject(a.name);
  }
}

/** Runs actions in order (restart = stop then start); stops at the first failure (docs/ir.md). */
export async function executeReconcile(actions: readonly ReconcileAction[], port: ReconcilePort): Promise<ReconcileOutcome> {
  let done = 0;
  for (const action of actions) {
    try {
      await runAction(port, action);
    } catch (error) {
      return { kind: 'failed', done, action, error };
    }
    done++;
  }
  return { kind: 'ok', done };
}
