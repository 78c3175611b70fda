import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerHandle } from '../../src/lib/port';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { tmuxConst, tmuxConsts, tmuxFormat, tmuxSessionTarget } from '../../src/lib/tmux/tmux-words';
import {
  allCmdlines,
  describeIfBinaries,
  ECHO_ARGV,
  FIXTURES_DIR,
  makeTestEnv,
  NODE,
  readEchoReport,
  SANDBOX_FIXTURES,
  tmuxSpec,
  type EchoReport,
  type TmuxTestEnv,
} from './tmux-support';

const SECRET = `s3cr3t-${randomBytes(12).toString('hex')}`;
const API_KEY = `sk-${randomBytes(12).toString('hex')}`;

describeIfBinaries(['tmux', 'xargs', 'bwrap'])('tmux runner: secrets and the sandbox boundary', () => {
  let env: TmuxTestEnv;
  const runner = createTmuxRunner();
  const started: Array<{ handle: RunnerHandle; report: EchoReport; spec: AgentLaunchSpec }> = [];

  async function start(agent: string, over: Partial<AgentLaunchSpec>): Promise<{ handle: RunnerHandle; report: EchoReport }> {
    const ws = path.join(env.workspace, agent);
    await fsp.mkdir(ws);
    const sandboxed = over.runner === 'bwrap';
    const script = sandboxed ? `${SANDBOX_FIXTURES}/echo-argv.js` : ECHO_ARGV;
    const probes = [env.home, path.join(env.home, 'tmux'), path.join(env.home, 'tmux', 'tmux.sock')].join(':');
    const spec: AgentLaunchSpec = {
      ...tmuxSpec(env, agent, [NODE, script, 'visible-arg']),
      workspace: ws,
      apiKey: API_KEY,
      ...over,
      config: {
        env: { GS_TEST_SECRET: SECRET, PROBE_PATHS: probes },
        ...(sandboxed ? { extra_ro_binds: [[FIXTURES_DIR, SANDBOX_FIXTURES]] as const } : {}),
      },
    };
    const handle = await runner.start(runner.plan(spec, env.ctx), env.ctx);
    const report = await readEchoReport(ws);
    started.push({ handle, report, spec });
    return { handle, report };
  }

  beforeAll(async () => {
    env = await makeTestEnv('secrets');
    await start('hostnone', { runner: 'none', network: 'open', endpoint: 'https://llm.example/v1' });
    await start('bwrapopen', { runner: 'bwrap', network: 'open' });
    await start('bwrapnone', { runner: 'bwrap', network: 'none' });
  });
  afterAll(async () => {
    for (const s of started) await s.handle.stop({ graceMs: 500 });
    await (await runner.server(env.ctx)).kill();
    await env.cleanup();
  });

  it('delivers the config.env value to the client (runner none and bwrap)', () => {
    for (const s of started) expect(s.report.env['GS_TEST_SECRET']).toBe(SECRET);
  });

  it('gives a bwrap client only the built environment (no TMUX, no host variables)', () => {
    const report = started.find((s) => s.spec.agent === 'bwrapopen')?.report;
    expect(Object.keys(report?.env ?? {}).sort()).toEqual(
      [
        'GENSWARMS_AGENT',
        'GENSWARMS_LLM_API_KEY', // the agent's own api_key: the operator's explicit choice (network open)
        'GENSWARMS_SKILLS_DIR',
        'GENSWARMS_SWARM',
        'GENSWARMS_TURNS_DIR',
        'GENSWARMS_WORKSPACE',
        'GS_TEST_SECRET',
        'HOME',
        'LANG',
        'PATH',
        'PROBE_PATHS',
        'PWD', // set by the launcher's sh
        'SWARM_TOPOLOGY',
        'TERM',
      ].sort(),
    );
  });

  // tmux always sets TMUX (the socket path), TMUX_PANE, TERM_PROGRAM* and SHELL in a pane;
  // genswarms-launch re-executes itself under `env -i`, so the client sees only the env file.
  it('gives a runner-none client no tmux variables', () => {
    const keys = Object.keys(started.find((s) => s.spec.agent === 'hostnone')?.report.env ?? {});
    expect(keys.filter((k) => k.startsWith('TMUX') || k.startsWith('TERM_PROGRAM') || k === 'SHELL')).toEqual([]);
  });

  it('keeps secret values out of every /proc/*/cmdline', async () => {
    const cmdlines = await allCmdlines();
    expect(cmdlines.filter((c) => c.includes(SECRET) || c.includes(API_KEY))).toEqual([]);
    expect(cmdlines.some((c) => c.includes('visible-arg'))).toBe(true); // the scan can see client argv
  });

  it("points panes' docker CLI at an empty private config dir, not the operator's ~/.docker", async () => {
    const server = await runner.server(env.ctx);
    const dir = path.join(env.ctx.home, 'tmux', 'docker-config');
    expect(await server.command([...tmuxConsts('show-environment', '-g'), tmuxConst('DOCKER_CONFIG')])).toEqual([`DOCKER_CONFIG=${dir}`]);
    const st = await fsp.lstat(dir);
    expect(st.isDirectory() && (st.mode & 0o777) === 0o700).toBe(true);
    expect(await fsp.readdir(dir)).toEqual([]);
  });

  it('keeps secret values out of tmux environments, options and pane commands', async () => {
    const server = await runner.server(env.ctx);
    const outputs = [
      await server.command(tmuxConsts('show-environment', '-g')),
      await server.command([...tmuxConsts('show-environment', '-t'), tmuxSessionTarget('sw')]),
      await server.command(tmuxConsts('show-options', '-g')),
      await server.command(tmuxConsts('show-options', '-s')),
      await server.command([...tmuxConsts('list-panes', '-a', '-F'), tmuxFormat('#{pane_start_command}')]),
      await server.command(tmuxConsts('list-buffers')),
    ].map((lines) => lines.join('\n'));
    expect(outputs[4]).toContain('xargs');
    for (const text of outputs) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(API_KEY);
    }
  });

  it('keeps secret values out of describe() and the manifests; the launcher deleted the env files', async () => {
    for (const s of started) {
      const described = JSON.stringify(s.handle.describe());
      expect(described).not.toContain(SECRET);
      expect(described).toContain('GS_TEST_SECRET');
      expect(existsSync(path.join(s.handle.describe().stateDir, '.genswarms', 'env'))).toBe(false);
    }
    const manifestRoot = path.join(env.home, 'manifests', 'sw');
    for (const agent of await fsp.readdir(manifestRoot)) {
      for (const file of await fsp.readdir(path.join(manifestRoot, agent))) {
        const body = await fsp.readFile(path.join(manifestRoot, agent, file), 'utf8');
        expect(body).not.toContain(SECRET);
        // beside a none/isolated pane's manifest sits its seccomp filter (<session>.bpf): no argv in it
        if (!file.endsWith('.bpf')) expect(body).toContain('visible-arg');
      }
    }
  });

  it('hides the tmux socket and $GENSWARMS_HOME from a bwrap client', () => {
    for (const agent of ['bwrapopen', 'bwrapnone']) {
      const report = started.find((s) => s.spec.agent === agent)?.report;
      expect(Object.values(report?.exists ?? { none: true })).toEqual([false, false, false]);
    }
    const host = started.find((s) => s.spec.agent === 'hostnone')?.report;
    // The probe can see them, except that a root server's host client runs as the agent uid (the uid
    // rule): it may pass through home by name but never into tmux/ (0700), so the socket is out of reach.
    const dropped = env.ctx.agent !== undefined && env.ctx.agent.uid !== env.ctx.serverUid;
    expect(Object.values(host?.exists ?? {})).toEqual([true, true, !dropped]);
  });

  it('leaves only lo to a bwrap client with network none', () => {
    expect(started.find((s) => s.spec.agent === 'bwrapnone')?.report.ifaces).toEqual(['lo']);
    expect(started.find((s) => s.spec.agent === 'bwrapopen')?.report.ifaces.length).toBeGreaterThan(1);
  });
});
