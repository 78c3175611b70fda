import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CODING_CLIENTS, createBwrapRunner, createLocalRunner } from '../../src/index';
import type { AgentLaunchSpec, RunnerContext } from '../../src/index';
import { fakeInstall, platform } from './fake-install';
import { makeContext, makeSandboxDirs, makeSpec } from '../support';

// Runners take a coding client from the clients dir (`genswarms clients install`) before the PATH; sandboxes
// bind its whole npm prefix read-only at /run/genswarms/clients/<name>.
let dirs: ReturnType<typeof makeSandboxDirs>;
beforeEach(() => {
  dirs = makeSandboxDirs();
});
afterEach(() => dirs.cleanup());

const maybe = platform === undefined ? it.skip : it;

/** A fake `<name>` on a PATH directory of the agent's own (`extra_path`): what the clients dir must win over. */
function onPath(name: string): string {
  const dir = path.join(dirs.root, 'bin');
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  writeFileSync(path.join(dir, name), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return dir;
}

function ctxWith(clientsDir: string | undefined): RunnerContext {
  return makeContext(dirs.home, clientsDir === undefined ? {} : { clientsDir });
}

function spec(extra: Partial<AgentLaunchSpec> = {}): AgentLaunchSpec {
  return makeSpec({ workspace: dirs.workspace, client: 'codex', config: { extra_path: [onPath('codex')] }, ...extra });
}

describe('the clients dir comes before the PATH', () => {
  maybe('local (pane): the installed native binary, not the codex on the PATH', () => {
    const clients = path.join(dirs.root, 'clients');
    const binary = fakeInstall(clients, 'codex');
    expect(createLocalRunner().plan(spec(), ctxWith(clients)).clientArgv).toEqual([binary, '--no-daemon']);
    expect(createLocalRunner().plan(spec(), ctxWith(undefined)).clientArgv).toEqual([path.join(dirs.root, 'bin', 'codex'), '--no-daemon']);
  });

  maybe('a client not installed there: the PATH as before', () => {
    const clients = path.join(dirs.root, 'clients');
    fakeInstall(clients, 'claude');
    expect(createLocalRunner().plan(spec(), ctxWith(clients)).clientArgv).toEqual([path.join(dirs.root, 'bin', 'codex'), '--no-daemon']);
  });

  maybe('bwrap (headless): the prefix bound read-only, the per-turn argv names the binary inside it, genswarms-agent runs', () => {
    const clients = path.join(dirs.root, 'clients');
    const binary = fakeInstall(clients, 'codex');
    const prefix = path.join(clients, 'codex', CODING_CLIENTS.codex.pinnedVersion);
    const plan = createBwrapRunner().plan(spec({ backend: 'bwrap', config: {} }), ctxWith(clients));
    expect(plan.mounts).toContainEqual({ host: prefix, sandbox: '/run/genswarms/clients/codex', access: 'ro' });
    expect(plan.clientInstall).toBe(prefix);
    const exec = JSON.parse(plan.env['GENSWARMS_CLIENT_EXEC'] ?? '{}') as { argv: string[] };
    expect(exec.argv[0]).toBe(`/run/genswarms/clients/codex/node_modules/${path.relative(path.join(prefix, 'node_modules'), binary)}`);
    expect(plan.clientArgv[1]).toBe('/run/genswarms/agent/echo-argv.js');
    expect(plan.mounts.map((m) => m.sandbox)).toContain('/run/genswarms/agent');
  });

  maybe('a damaged install is refused (binary_missing), never passed over for another copy', () => {
    const clients = path.join(dirs.root, 'clients');
    fakeInstall(clients, 'codex', 'not-codex');
    expect(() => createLocalRunner().plan(spec(), ctxWith(clients))).toThrow(
      expect.objectContaining({ code: 'binary_missing', details: { binary: 'codex', reason: 'invalid' } }),
    );
  });

  maybe("an install inside GENSWARMS_HOME but outside its clients/ (an agent's state) is refused as a mount source", () => {
    const clients = path.join(dirs.home, 'state', 'x');
    fakeInstall(clients, 'codex');
    expect(() => createLocalRunner().plan(spec(), ctxWith(clients))).toThrow(expect.objectContaining({ code: 'unsafe_bind' }));
  });

  maybe('the clients dir under GENSWARMS_HOME is a generated mount only: an operator bind of it is still refused', () => {
    const clients = path.join(dirs.home, 'clients');
    fakeInstall(clients, 'codex');
    const bwrap = spec({ backend: 'bwrap', config: { extra_ro_binds: [[clients, '/data']] } });
    expect(() => createBwrapRunner().plan(bwrap, ctxWith(clients))).toThrow(
      expect.objectContaining({ code: 'unsafe_bind', message: expect.stringContaining('overlaps GENSWARMS_HOME') }),
    );
    expect(createBwrapRunner().plan(spec({ backend: 'bwrap', config: {} }), ctxWith(clients)).clientInstall).toBe(
      path.join(clients, 'codex', CODING_CLIENTS.codex.pinnedVersion),
    );
  });

  maybe('agent_binary_path still replaces the executable (no clients-dir lookup)', () => {
    const clients = path.join(dirs.root, 'clients');
    fakeInstall(clients, 'codex');
    const own = path.join(onPath('my-codex'), 'my-codex');
    expect(createLocalRunner().plan(spec({ config: { agent_binary_path: own } }), ctxWith(clients)).clientArgv).toEqual([
      own,
      '--no-daemon',
    ]);
  });
});
