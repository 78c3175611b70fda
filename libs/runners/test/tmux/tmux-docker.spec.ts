import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerHandle } from '../../src/lib/port';
import { createTmuxDockerRunner } from '../../src/lib/docker/tmux-docker';
import { buildXargsArgv } from '../../src/lib/manifest/argv-manifest';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { tmuxConsts, tmuxFormat } from '../../src/lib/tmux/tmux-words';
import { containersWithLabel, describeIfEngine, dockerCli, TEST_IMAGE } from '../docker/docker-support';
import {
  allCmdlines,
  FAKE_TUI,
  FIXTURES_DIR,
  makeTestEnv,
  missingBinaries,
  readEchoReport,
  tmuxSpec,
  waitFor,
  type EchoReport,
  type TmuxTestEnv,
} from './tmux-support';

const SECRET = `s3cr3t-${randomBytes(12).toString('hex')}`;
const API_KEY = `sk-${randomBytes(12).toString('hex')}`;
const PWNED = `/tmp/pwned-${randomBytes(6).toString('hex')}`;
/** Where the fixtures appear inside the container (bound read-only). */
const CTR_FIXTURES = '/opt/gs-fixtures';
const CTR_TOOLS = '/opt/gs-tools';
const NODE_IN_IMAGE = '/usr/bin/node';

/** Hostile words that must reach the containerised client byte-for-byte (none of them may ever run). */
const HOSTILE: readonly string[] = [
  `$(touch ${PWNED})`,
  `"$(touch ${PWNED})"`,
  `\`touch ${PWNED}\``,
  `; touch ${PWNED}`,
  `| touch ${PWNED}`,
  `&& touch ${PWNED} &`,
  `'`,
  `"`,
  `'\\''`,
  'a\nb',
  '\n',
  'tab\there',
  '\r\n',
  '-',
  '--',
  '--help',
  '-ai',
  'start',
  '#{pane_id}',
  '~',
  '$HOME',
  '\\;',
  ';',
  'C-c',
  'ünïcødé 🦀 \u202e',
];

interface Inspect {
  Name: string;
  Config: {
    Env: string[] | null;
    Labels: Record<string, string>;
    Cmd: string[];
    Entrypoint: string[];
    User: string;
    Tty: boolean;
    OpenStdin: boolean;
    StdinOnce: boolean;
  };
  HostConfig: {
    NetworkMode: string;
    CapDrop: string[];
    ReadonlyRootfs: boolean;
    Init: boolean;
    SecurityOpt: string[];
    Privileged: boolean;
  };
}

function inspectByName(name: string): Inspect | undefined {
  const out = dockerCli(['inspect', '--type', 'container', name]);
  return out === undefined ? undefined : (JSON.parse(out) as Inspect[])[0];
}

const describeTmuxDocker = missingBinaries(['tmux', 'xargs']).length === 0 ? describeIfEngine : describe.skip;
if (missingBinaries(['tmux', 'xargs']).length > 0) console.warn('SKIPPING tmux+docker specs: tmux or xargs missing (CI installs them)');

describeTmuxDocker('tmux runner docker: a TUI client in a pane inside a container (real tmux, real dockerd)', () => {
  let env: TmuxTestEnv;
  const runner = createTmuxRunner({ docker: createTmuxDockerRunner({ defaultImage: TEST_IMAGE }) });
  const live: RunnerHandle[] = [];
  const network = `gs-tdnet-${randomBytes(4).toString('hex')}`;

  async function workspaceFor(agent: string): Promise<string> {
    const ws = path.join(env.workspace, agent);
    await fsp.mkdir(ws);
    return ws;
  }

  function echoSpec(agent: string, ws: string, words: readonly string[], over: Partial<AgentLaunchSpec> = {}): AgentLaunchSpec {
    return {
      ...tmuxSpec(env, agent, [NODE_IN_IMAGE, `${CTR_FIXTURES}/echo-argv.js`, ...words], { runner: 'docker', workspace: ws }),
      apiKey: API_KEY,
      ...over,
      config: {
        env: { GS_TEST_SECRET: SECRET, PROBE_PATHS: `/run/genswarms/launch:${env.home}` },
        extra_ro_binds: [[FIXTURES_DIR, CTR_FIXTURES]],
        ...over.config,
      },
    };
  }

  async function startEcho(
    agent: string,
    words: readonly string[],
    over: Partial<AgentLaunchSpec> = {},
  ): Promise<{ handle: RunnerHandle; report: EchoReport; ws: string }> {
    const ws = await workspaceFor(agent);
    const handle = await runner.start(runner.plan(echoSpec(agent, ws, words, over), env.ctx), env.ctx);
    live.push(handle);
    return { handle, report: await readEchoReport(ws), ws };
  }

  beforeAll(async () => {
    env = await makeTestEnv('tdock');
    expect(dockerCli(['network', 'create', '--internal', network])).toBeDefined();
  });
  afterAll(async () => {
    for (const h of live) await h.stop({ graceMs: 200 });
    await (await runner.server(env.ctx)).kill();
    dockerCli(['network', 'rm', network]);
    await env.cleanup();
  });

  describe('fake-tui in the container', () => {
    let handle: RunnerHandle;
    let ws: string;
    const lines: string[] = [];

    beforeAll(async () => {
      ws = await workspaceFor('tui');
      const spec: AgentLaunchSpec = {
        ...tmuxSpec(env, 'tui', [NODE_IN_IMAGE, `${CTR_TOOLS}/fake-tui.js`, '--report', '/workspace/fake-tui.json', '$(id)'], {
          runner: 'docker',
          workspace: ws,
        }),
        network: 'none',
        config: { extra_ro_binds: [[path.dirname(FAKE_TUI), CTR_TOOLS]] },
      };
      handle = await runner.start(runner.plan(spec, env.ctx), env.ctx);
      live.push(handle);
      handle.onOutput((_stream, line) => lines.push(line));
      await waitFor(() => (lines.some((l) => l.includes('fake-tui ready')) ? true : undefined), 'fake-tui ready', { timeoutMs: 30_000 });
    });

    it('runs the client inside the container with the built environment (TERM/LANG from the env file)', async () => {
      const report = JSON.parse(await fsp.readFile(path.join(ws, 'fake-tui.json'), 'utf8')) as { argv: string[]; envNames: string[] };
      expect(report.argv).toEqual(['--report', '/workspace/fake-tui.json', '$(id)']);
      expect(report.envNames).toEqual(expect.arrayContaining(['GENSWARMS_TURNS_DIR', 'GENSWARMS_WORKSPACE', 'TERM', 'LANG', 'HOME']));
      expect(handle.describe()).toMatchObject({ backend: 'tmux', runner: 'docker', network: 'none', tmuxTarget: '=sw:=tui' });
    });

    it('turns a pasted turn into a real receipt in the host workspace', async () => {
      const content = `hello from the host; $(touch ${PWNED}) #{pane_id}\nsecond line`;
      await handle.deliver({ turnId: 'tdturn1', seq: 1, from: 'planner', content, clientTurnsDir: '/workspace/.genswarms/turns' });
      const turnDir = path.join(ws, '.genswarms', 'turns', 'tdturn1');
      const done = await waitFor(
        async () => (existsSync(path.join(turnDir, 'done.json')) ? await fsp.readFile(path.join(turnDir, 'done.json'), 'utf8') : undefined),
        'done.json',
      );
      expect(JSON.parse(done)).toEqual({ v: 1, turn: 'tdturn1', status: 'ok' });
      expect(await fsp.readFile(path.join(turnDir, 'reply.md'), 'utf8')).toBe(`fake-tui: ${content}`);
      await waitFor(() => lines.find((l) => l.startsWith('fake-tui: answered turn tdturn1')), 'answered line');
      expect(existsSync(PWNED)).toBe(false);
    });
  });

  describe('argv, secrets and the pane command', () => {
    let started: { handle: RunnerHandle; report: EchoReport; ws: string };
    const big = `${'x'.repeat(50_000)}$(touch ${PWNED})${'y'.repeat(50_000)}`;

    beforeAll(async () => {
      started = await startEcho('echo', [...HOSTILE, big], { network: 'open' });
    });

    it('delivers hostile words and a 100,000-character word byte-for-byte', () => {
      expect(started.report.argv).toEqual([...HOSTILE, big]);
      expect(existsSync(PWNED)).toBe(false);
    });

    it('gives the client the config.env value and only the built environment', () => {
      expect(started.report.env['GS_TEST_SECRET']).toBe(SECRET);
      expect(started.report.env['GENSWARMS_LLM_API_KEY']).toBe(API_KEY);
      expect(started.report.env['TERM']).toBe('xterm-256color');
      expect(started.report.env['LANG']).toBe('C.UTF-8');
      const keys = Object.keys(started.report.env);
      expect(keys.filter((k) => k.startsWith('TMUX') || k.startsWith('DOCKER') || k === 'SHELL')).toEqual([]);
    });

    it('hides $GENSWARMS_HOME (and so the tmux socket) from the container; the launcher is bound', () => {
      expect(started.report.exists).toEqual({ '/run/genswarms/launch': true, [env.home]: false });
    });

    it('creates the hardened container with a TTY and no secret in Config.Env, Labels or Cmd', () => {
      const info = inspectByName('gs-sw-echo');
      expect(info).toBeDefined();
      const i = info as Inspect;
      expect(i.Config).toMatchObject({
        Tty: true,
        OpenStdin: true,
        StdinOnce: false,
        Entrypoint: ['/run/genswarms/launch', '/root/.genswarms/env'],
      });
      expect(i.Config.User).toBe(`${env.ctx.agent?.uid}:${env.ctx.agent?.gid}`); // the agent identity, never 0
      expect(i.HostConfig).toMatchObject({
        CapDrop: ['ALL'],
        ReadonlyRootfs: true,
        Init: true,
        Privileged: false,
        SecurityOpt: ['no-new-privileges:true'],
      });
      const ours = Object.keys(i.Config.Labels).filter((k) => k !== 'genswarms.content'); // that one is the image's
      expect(ours.sort()).toEqual(['genswarms.agent', 'genswarms.session', 'genswarms.swarm']);
      expect(i.Config.Labels).toMatchObject({
        'genswarms.swarm': 'sw',
        'genswarms.agent': 'echo',
        'genswarms.session': started.handle.describe().sessionId,
      });
      const exposed = JSON.stringify([i.Config.Env, i.Config.Labels, i.Config.Cmd]);
      expect(exposed).not.toContain(SECRET);
      expect(exposed).not.toContain(API_KEY);
      expect(i.Config.Cmd).toEqual([NODE_IN_IMAGE, `${CTR_FIXTURES}/echo-argv.js`, ...HOSTILE, big]);
    });

    it('keeps secrets out of every host /proc/*/cmdline and out of describe()', async () => {
      const cmdlines = await allCmdlines();
      expect(cmdlines.filter((c) => c.includes(SECRET) || c.includes(API_KEY))).toEqual([]);
      expect(cmdlines.some((c) => c.includes('\0start\0-ai\0gs-sw-echo'))).toBe(true); // the scan sees the pane's docker CLI
      expect(JSON.stringify(started.handle.describe())).not.toContain(SECRET);
      expect(existsSync(path.join(started.handle.describe().stateDir, '.genswarms', 'env'))).toBe(false); // the launcher deleted it
    });

    it('runs exactly the xargs line in the pane: entry = docker CLI, manifest words `start -ai <container>`', async () => {
      const sessionId = started.handle.describe().sessionId;
      const manifest = path.join(env.home, 'manifests', 'sw', 'echo', `${sessionId}.argv`);
      expect(await fsp.readFile(manifest, 'utf8')).toBe('start\0-ai\0gs-sw-echo\0');
      const docker = env.ctx.binaries.docker as string;
      const expected = buildXargsArgv(env.ctx.binaries.xargs as string, manifest, docker, ['start', '-ai', 'gs-sw-echo']);
      expect(expected.every((w) => /^[A-Za-z0-9_./=-]+$/.test(w))).toBe(true); // so tmux renders it unquoted
      const server = await runner.server(env.ctx);
      const panes = await server.command([...tmuxConsts('list-panes', '-a', '-F'), tmuxFormat('#{window_name}:#{pane_start_command}')]);
      const line = panes.find((l) => l.startsWith('echo:'));
      expect(line).toBe(`echo:${expected.join(' ')}`);
      const all = panes.join('\n');
      expect(all).not.toContain(SECRET);
      expect(all).not.toContain(API_KEY);
      expect(all).not.toContain('echo-argv.js'); // the client's launch vector is never on a command line
    });
  });

  describe('networks', () => {
    it('leaves only lo with network none', async () => {
      const { report } = await startEcho('netnone', ['n'], { network: 'none' });
      expect(report.ifaces).toEqual(['lo']);
      expect(report.env['GENSWARMS_LLM_API_KEY']).toBeUndefined(); // none: no key
      expect(inspectByName('gs-sw-netnone')?.HostConfig.NetworkMode).toBe('none');
    });

    it('joins a named network (and open gives more than lo)', async () => {
      const named = await startEcho('netnamed', ['n'], { network: { named: network } });
      expect(named.report.ifaces).toEqual(expect.arrayContaining(['lo', 'eth0']));
      expect(inspectByName('gs-sw-netnamed')?.HostConfig.NetworkMode).toBe(network);
      const open = await startEcho('netopen', ['o'], { network: 'open' });
      expect(open.report.ifaces.length).toBeGreaterThan(1);
    });
  });

  describe('lifecycle', () => {
    it('refuses network isolated at plan time and creates nothing (unsupported_network)', async () => {
      const spec = echoSpec('iso', path.join(env.workspace, 'iso'), ['i'], { network: 'isolated' });
      expect(() => runner.plan(spec, env.ctx)).toThrow(expect.objectContaining({ code: 'unsupported_network' }) as unknown as Error);
      expect(inspectByName('gs-sw-iso')).toBeUndefined();
      expect(await (await runner.server(env.ctx)).findPane('sw', 'iso')).toBeUndefined();
      expect(existsSync(path.join(env.home, 'state', 'sw', 'iso'))).toBe(false);
    });

    it('stop leaves no container, no window, no env file and no manifest', async () => {
      const { handle } = await startEcho('stopper', ['s']);
      const { sessionId, stateDir } = handle.describe();
      expect(containersWithLabel('genswarms.session', sessionId)).toHaveLength(1);
      await handle.stop({ graceMs: 200 });
      expect(containersWithLabel('genswarms.session', sessionId)).toEqual([]);
      expect(inspectByName('gs-sw-stopper')).toBeUndefined();
      expect(await (await runner.server(env.ctx)).findPane('sw', 'stopper')).toBeUndefined();
      expect(existsSync(path.join(stateDir, '.genswarms', 'env'))).toBe(false);
      expect(await fsp.readdir(path.join(env.home, 'manifests', 'sw', 'stopper'))).toEqual([]);
    });

    it("reports the client's exit through docker start -ai and xargs", async () => {
      const ws = await workspaceFor('exiter');
      const spec = echoSpec('exiter', ws, ['e'], {
        config: { env: { FIXTURE_EXIT_CODE: '7' }, extra_ro_binds: [[FIXTURES_DIR, CTR_FIXTURES]] },
      });
      const handle = await runner.start(runner.plan(spec, env.ctx), env.ctx);
      live.push(handle);
      const code = await new Promise<number | null>((resolve) => handle.onExit((c) => resolve(c)));
      expect(dockerCli(['inspect', '-f', '{{.State.ExitCode}}', 'gs-sw-exiter'])?.trim()).toBe('7');
      expect(code).toBe(123); // docker start -ai returns 7; xargs reports a 1-125 exit as 123 (docs/runners.md)
    });

    it('re-attaches by labels after a restart, and its stop removes the container', async () => {
      const { handle } = await startEcho('survivor', ['r']);
      const description = handle.describe();
      const second = createTmuxRunner({ docker: createTmuxDockerRunner({ defaultImage: TEST_IMAGE }) });
      const again = await second.reattach?.(description, env.ctx);
      expect(again).toBeDefined();
      expect(again).not.toBeNull();
      await (again as RunnerHandle).stop({ graceMs: 200 });
      expect(containersWithLabel('genswarms.session', description.sessionId)).toEqual([]);
      expect(await second.reattach?.(description, env.ctx)).toBeNull();
      await (await second.server(env.ctx)).close();
    });

    it('refuses to start over a running container of the same agent (start_failed) and leaves the first one alone', async () => {
      const { handle } = await startEcho('twice', ['1']);
      const ws = path.join(env.workspace, 'twice');
      await expect(runner.start(runner.plan(echoSpec('twice', ws, ['2']), env.ctx), env.ctx)).rejects.toMatchObject({
        code: 'start_failed',
      });
      expect(await handle.health()).toBe('running');
      expect(inspectByName('gs-sw-twice')?.Config.Cmd.at(-1)).toBe('1');
    });
  });
});
