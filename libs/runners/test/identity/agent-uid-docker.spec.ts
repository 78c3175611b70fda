/**
 * The uid rule against the real engine: a root server's docker and tmux+docker agents run as the agent
 * identity, never uid 0; what they write on the host belongs to that uid, and a setuid bit they set
 * makes nothing root-owned (the process cannot chown to 0).
 */
import { statSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext, RunnerHandle } from '../../src/index';
import { createDockerRunner, createTmuxDockerRunner, createTmuxRunner } from '../../src/index';
import {
  describeIfEngine,
  dockerCli,
  makeCtx,
  makeDirs,
  makeDockerSpec,
  TEST_IMAGE,
  waitFor,
  type TestDirs,
} from '../docker/docker-support';
import { readJsonIfWritten } from '../support';
import { makeTestEnv, missingBinaries, tmuxSpec, type TmuxTestEnv } from '../tmux/tmux-support';

const AGENT = { uid: 4711, gid: 4712 };
const isRoot = process.getuid?.() === 0;

/** Runs inside the container: who am I, what the mount looks like, and a setuid attempt on a copy of busybox. */
const PROBE = `
const fs = require('node:fs');
const r = { uid: process.getuid(), gid: process.getgid(), groups: process.getgroups() };
fs.writeFileSync('/workspace/written.txt', 'x');
fs.copyFileSync('/usr/bin/busybox', '/workspace/suid');
fs.chmodSync('/workspace/suid', 0o4755);
try { fs.chownSync('/workspace/suid', 0, 0); r.chownRoot = 'ok'; } catch (e) { r.chownRoot = e.code; }
try { fs.writeFileSync('/root/home-file', 'x'); r.homeWritable = true; } catch (e) { r.homeWritable = e.code; }
r.mount = fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\\n').find((l) => l.split(' ')[4] === '/workspace');
fs.writeFileSync('/workspace/report.json', JSON.stringify(r));
setInterval(() => {}, 1000);
`;

interface Probe {
  uid: number;
  gid: number;
  groups: number[];
  chownRoot: string;
  homeWritable: boolean | string;
  mount: string;
}

function configUser(name: string): string | undefined {
  return dockerCli(['inspect', '--format', '{{.Config.User}}', name])?.trim();
}

async function report(ws: string): Promise<Probe> {
  return waitFor(() => readJsonIfWritten<Probe>(path.join(ws, 'report.json')), 'report.json', { timeoutMs: 30_000 });
}

function expectAgentOwned(ws: string, stateDir: string, probe: Probe): void {
  expect(probe).toMatchObject({ uid: AGENT.uid, gid: AGENT.gid, chownRoot: 'EPERM', homeWritable: true });
  expect(probe.groups).toEqual([AGENT.gid]);
  for (const file of ['written.txt', 'suid', 'report.json']) expect(statSync(path.join(ws, file))).toMatchObject({ uid: AGENT.uid });
  const suid = statSync(path.join(ws, 'suid'));
  expect(suid.uid).not.toBe(0); // the setuid bit is there, but it can only ever mean "become the agent"
  expect(statSync(ws)).toMatchObject({ uid: AGENT.uid, gid: AGENT.gid });
  expect(statSync(stateDir)).toMatchObject({ uid: AGENT.uid, gid: AGENT.gid });
  expect(statSync(stateDir).mode & 0o777).toBe(0o700);
  expect(statSync(path.join(stateDir, 'home-file')).uid).toBe(AGENT.uid);
}

(isRoot ? describeIfEngine : describe.skip)('uid rule: docker agents of a root server (real engine)', () => {
  let dirs: TestDirs;
  let ctx: RunnerContext;
  const handles: RunnerHandle[] = [];

  beforeEach(() => {
    dirs = makeDirs('gs-uid-docker-');
    ctx = makeCtx(dirs.home, { agentUid: AGENT.uid, agentGid: AGENT.gid });
  });
  afterEach(async () => {
    for (const h of handles.splice(0)) await h.stop({ graceMs: 0 });
    dirs.cleanup();
  });

  it('runs the headless container as the agent uid: Config.User, id inside, host ownership, no root setuid', async () => {
    const runner = createDockerRunner();
    const spec = makeDockerSpec({
      workspace: dirs.workspace,
      swarm: 'uidsw',
      agent: 'box',
      client: { command: ['/usr/bin/node', '-e', PROBE] },
    });
    const handle = await runner.start(runner.plan(spec, ctx), ctx);
    handles.push(handle);
    expect(configUser('gs-uidsw-box')).toBe(`${AGENT.uid}:${AGENT.gid}`);
    expectAgentOwned(dirs.workspace, handle.describe().stateDir, await report(dirs.workspace));
  });

  it('runs a default-identity container (no GENSWARMS_AGENT_UID) as a non-zero uid too', async () => {
    const plain = makeCtx(dirs.home);
    const runner = createDockerRunner();
    const spec = makeDockerSpec({
      workspace: dirs.workspace,
      swarm: 'uidsw',
      agent: 'dflt',
      client: { command: ['/usr/bin/node', '-e', PROBE] },
    });
    const handle = await runner.start(runner.plan(spec, plain), plain);
    handles.push(handle);
    const user = configUser('gs-uidsw-dflt') ?? '';
    expect(user).toMatch(/^[1-9][0-9]*:[1-9][0-9]*$/);
    expect((await report(dirs.workspace)).uid).toBe(Number(user.split(':')[0]));
  });
});

const describeTmux = isRoot && missingBinaries(['tmux', 'xargs']).length === 0 ? describeIfEngine : describe.skip;

describeTmux('uid rule: tmux runner docker of a root server (real tmux, real engine)', () => {
  let env: TmuxTestEnv;
  const runner = createTmuxRunner({ docker: createTmuxDockerRunner({ defaultImage: TEST_IMAGE }) });
  let handle: RunnerHandle | undefined;

  beforeAll(async () => {
    env = await makeTestEnv('uidtd');
  });
  afterAll(async () => {
    await handle?.stop({ graceMs: 200 });
    await (await runner.server(env.ctx)).kill();
    await env.cleanup();
  });

  it('creates the pane container with the agent User; the client is that uid and owns what it writes', async () => {
    const ctx = { ...env.ctx, agent: AGENT };
    const ws = path.join(env.workspace, 'pane');
    await fsp.mkdir(ws);
    const spec = tmuxSpec(env, 'pane', ['/usr/bin/node', '-e', PROBE], { runner: 'docker', workspace: ws, network: 'none' });
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    expect(configUser('gs-sw-pane')).toBe(`${AGENT.uid}:${AGENT.gid}`);
    expectAgentOwned(ws, handle.describe().stateDir, await report(ws));
  });
});
