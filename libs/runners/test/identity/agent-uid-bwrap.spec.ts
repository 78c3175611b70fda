/**
 * The uid rule for bwrap (headless and tmux runner `bwrap`) of a root server: bwrap itself is started as
 * the agent uid, so its user namespace maps the sandbox's uid 1000 to the agent. Started as root instead,
 * a client could chmod u+s a copy of a binary in its workspace and leave a setuid-ROOT file on the host.
 */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext, RunnerHandle } from '../../src/index';
import { createBwrapRunner, createTmuxRunner } from '../../src/index';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec, readJsonIfWritten } from '../support';
import { waitFor } from '../docker/docker-support';

const AGENT = { uid: 4711, gid: 4712 };
const isRoot = process.getuid?.() === 0;

/** Inside the sandbox: who am I, then a setuid copy of a binary in the workspace. */
const PROBE = `
const fs = require('node:fs');
fs.copyFileSync('/usr/bin/env', '/workspace/suid');
fs.chmodSync('/workspace/suid', 0o4755);
fs.writeFileSync('/root/home-file', 'x');
fs.writeFileSync('/workspace/.probe.tmp', JSON.stringify({ uid: process.getuid(), pid: process.pid }));
fs.renameSync('/workspace/.probe.tmp', '/workspace/probe.json');
setInterval(() => {}, 1000);
`;

function expectAgentOwned(workspace: string, stateDir: string): void {
  const suid = statSync(path.join(workspace, 'suid'));
  expect(suid.mode & 0o4000).toBe(0o4000); // the bit is there…
  expect({ uid: suid.uid, gid: suid.gid }).toEqual(AGENT); // …on a file of the agent, never of root
  expect(statSync(path.join(stateDir, 'home-file')).uid).toBe(AGENT.uid);
}

(isRoot && haveBinary('bwrap') && haveBinary('setpriv') ? describe : describe.skip)('uid rule: bwrap of a root server', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let ctx: RunnerContext;
  let handle: RunnerHandle | undefined;

  beforeEach(() => {
    dirs = makeSandboxDirs('gs-uid-bwrap-');
    ctx = makeContext(dirs.home, { agentUid: AGENT.uid, agentGid: AGENT.gid });
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 500 });
    handle = undefined;
    dirs.cleanup();
  });

  it("headless: bwrap runs as the agent uid and what the client writes (a setuid copy too) is the agent's", async () => {
    const runner = createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      network: 'none',
      workspace: dirs.workspace,
      client: { command: ['/usr/bin/node', '-e', PROBE] },
    });
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    const probe = await waitFor(() => readJsonIfWritten<{ uid: number }>(path.join(dirs.workspace, 'probe.json')), 'probe.json', {
      timeoutMs: 20_000,
    });
    expect(probe.uid).toBe(1000); // the sandbox's own view is unchanged
    expect(readFileSync(`/proc/${handle.describe().pid}/status`, 'utf8')).toContain(
      `Uid:\t${AGENT.uid}\t${AGENT.uid}\t${AGENT.uid}\t${AGENT.uid}`,
    );
    expectAgentOwned(dirs.workspace, handle.describe().stateDir);
  });

  (haveBinary('tmux') ? it : it.skip)('tmux runner bwrap: the pane starts bwrap as the agent uid', async () => {
    const runner = createTmuxRunner();
    try {
      const spec = makeSpec({
        backend: 'tmux',
        runner: 'bwrap',
        network: 'none',
        workspace: dirs.workspace,
        client: { command: ['/usr/bin/node', '-e', PROBE] },
      });
      handle = await runner.start(runner.plan(spec, ctx), ctx);
      await waitFor(() => readJsonIfWritten(path.join(dirs.workspace, 'probe.json')), 'probe.json', { timeoutMs: 20_000 });
      expectAgentOwned(dirs.workspace, handle.describe().stateDir);
    } finally {
      await handle?.stop({ graceMs: 200 });
      handle = undefined;
      await (await runner.server(ctx)).kill();
    }
  });
});
