import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { newTurnId, prepareTurnDir, watchTurn, writeFileSafely } from '@genswarms/receipts';
import { buildOnce } from '@genswarms/tools';
import { createBwrapRunner, createLocalRunner } from '../../src/index';
import type { Runner, RunnerHandle } from '../../src/index';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec } from '../support';
import { fakeInstall, platform } from './fake-install';

/**
 * The default clients dir lies in GENSWARMS_HOME (0700): a root server's agent uid reaches the install
 * through search-only directories (0710, the agents' group), bwrap binds it, the driver runs it per turn.
 * The "client" here is a script that prints its answer; the driver turns that into the reply.
 */
const AGENT_DIR = path.resolve(__dirname, '..', '..', '..', '..', 'apps', 'agent');
const AGENT_ENTRY = path.join(AGENT_DIR, 'dist', 'main.js');
const ANSWER = 'hello from the installed client';
const root = process.getuid?.() === 0;
const usable = platform !== undefined && haveBinary('bwrap') && haveBinary('setpriv');
if (!usable) console.warn('SKIPPING clients-dir-reach: needs bwrap, setpriv and a client platform');

const RUNNERS: ReadonlyArray<readonly [string, () => Runner, 'local' | 'bwrap', Record<string, unknown>]> = [
  ['bwrap (headless, network none)', createBwrapRunner, 'bwrap', {}],
  ['local (headless)', createLocalRunner, 'local', { client_mode: 'headless' }],
];

describe('an install in $GENSWARMS_HOME/clients', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  beforeAll(() => {
    const built = buildOnce([path.join(AGENT_DIR, 'tsconfig.lib.json')]);
    if (built.kind === 'failed' || !existsSync(AGENT_ENTRY)) throw new Error('agent build failed');
  }, 120_000);
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 1000 });
    handle = undefined;
    dirs.cleanup();
  });

  (usable ? test.each(RUNNERS) : test.skip.each(RUNNERS))(
    '%s: the agent uid runs it, home stays closed to others',
    async (_n, make, backend, opts) => {
      const clients = path.join(dirs.home, 'clients');
      fakeInstall(clients, 'opencode', undefined, `#!/bin/sh\necho '${ANSWER}'\n`);
      const ctx = makeContext(dirs.home, { agentEntry: AGENT_ENTRY, clientsDir: clients });
      const spec = makeSpec({
        backend,
        network: backend === 'bwrap' ? 'none' : 'open',
        workspace: dirs.workspace,
        client: 'opencode',
        backendOpts: opts,
      });
      const runner = make();
      handle = await runner.start(runner.plan(spec, ctx), ctx);
      const turn = newTurnId();
      expect((await prepareTurnDir(dirs.workspace, turn)).kind).toBe('ok');
      const item = { from: '_operator', content: 'hi', seq: 1, timestamp: new Date().toISOString(), turn };
      expect((await writeFileSafely(path.join(dirs.workspace, '.inbox'), '0001__operator.json', JSON.stringify(item))).kind).toBe('ok');
      const abort = AbortSignal.timeout(30_000);
      expect(await watchTurn(dirs.workspace, turn, { signal: abort })).toEqual({ kind: 'ok', status: 'ok', reply: ANSWER });
      if (root) {
        // search-only for the agents' group on the way down, never listable or open to others
        for (const dir of [dirs.home, clients, path.join(clients, 'opencode')])
          expect([dir, statSync(dir).mode & 0o777]).toEqual([dir, 0o710]);
      }
    },
    60_000,
  );
});
