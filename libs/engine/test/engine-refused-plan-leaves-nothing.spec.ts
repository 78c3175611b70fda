/**
 * A start or mutation the runner plan refuses creates nothing on disk: no default workspace below
 * `$GENSWARMS_HOME/workspaces/<swarm>/`, no operator-named workspace, not even for the agents of the
 * same config that planned fine (every agent is planned before any directory is made).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineError } from '../src/lib/errors/engine-error';
import { makeHarness, mockAgent, type Harness } from './harness';
import { refusal } from '@genswarms/test-kit';

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

/** A bwrap agent on `network: isolated` whose endpoint the operator never allowed: refused by the plan. */
const untrusted = (name: string, extra: Record<string, unknown> = {}): { name: string } & Record<string, unknown> => ({
  name,
  backend: 'bwrap',
  network: 'isolated',
  endpoint: 'http://untrusted.example:8080/v1',
  ...extra,
});

describe('a refused plan leaves no directory behind', () => {
  test.each([
    ['the refused agent alone', (ws: string) => [untrusted('b', { workspace: ws })]],
    ['a fine agent planned before the refused one', (ws: string) => [mockAgent('a'), untrusted('b', { workspace: ws })]],
    ['default workspaces only', () => [mockAgent('a'), untrusted('b')]],
  ])('start: %s', async (_what, agents) => {
    const named = path.join(h.named, 'operator-ws', 'b');
    const e = await refusal(EngineError, h.engine.startSwarm({ config: { name: 's', agents: agents(named) } }));
    expect(e.code).toBe('endpoint_not_allowed');
    expect(fs.existsSync(path.join(h.home, 'workspaces', 's'))).toBe(false);
    expect(fs.existsSync(path.join(h.named, 'operator-ws'))).toBe(false);
  });

  it('add agent: the refused agent gets no workspace', async () => {
    await h.engine.startSwarm({ config: { name: 's', agents: [mockAgent('a')] } });
    const e = await refusal(EngineError, h.engine.addAgent('s', untrusted('b')));
    expect(e.code).toBe('endpoint_not_allowed');
    expect(fs.existsSync(path.join(h.home, 'workspaces', 's', 'a'))).toBe(true);
    expect(fs.existsSync(path.join(h.home, 'workspaces', 's', 'b'))).toBe(false);
  });
});
