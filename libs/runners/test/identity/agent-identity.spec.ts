/** The uid rule, pure: which uid:gid an agent gets, how the variables parse, and what reaches argv and the container spec. */
import {
  AGENT_ID_MAX,
  DEFAULT_AGENT_GID,
  DEFAULT_AGENT_UID,
  parseAgentId,
  privilegeDropWords,
  resolveAgentIdentity,
} from '../../src/lib/identity/agent-identity';
import { buildContainerSpec } from '../../src/lib/docker/container-spec';
import { buildRunnerContext } from '../../src/index';
import type { LaunchPlan, RunnerContext } from '../../src/index';
import { makeSpec, TEST_PATH } from '../support';

const ctxFor = (uid: number, gid: number, over: Partial<RunnerContext> = {}): RunnerContext =>
  ({
    home: '/gs',
    serverUid: uid,
    serverGid: gid,
    binaries: { node: '/usr/bin/node', setpriv: '/usr/bin/setpriv' },
    agentEntry: '/a/main.js',
    llm: { allowedHosts: [] },
    ...over,
  }) as RunnerContext;

describe('resolveAgentIdentity (no agent ever runs as uid 0)', () => {
  it('runs agents as the server itself when the server is not root', () => {
    expect(resolveAgentIdentity({ serverUid: 1000, serverGid: 1001 })).toEqual({ kind: 'ok', identity: { uid: 1000, gid: 1001 } });
    expect(resolveAgentIdentity({ serverUid: 1000, serverGid: 1001, uid: 1000, gid: 1001 })).toEqual({
      kind: 'ok',
      identity: { uid: 1000, gid: 1001 },
    });
  });

  it('runs agents as the fixed unprivileged pair when the server is root and nothing is configured', () => {
    expect(resolveAgentIdentity({ serverUid: 0, serverGid: 0 })).toEqual({
      kind: 'ok',
      identity: { uid: DEFAULT_AGENT_UID, gid: DEFAULT_AGENT_GID },
    });
  });

  it('takes the configured uid (gid defaults to it) and gid when the server is root', () => {
    expect(resolveAgentIdentity({ serverUid: 0, serverGid: 0, uid: 4000 })).toEqual({ kind: 'ok', identity: { uid: 4000, gid: 4000 } });
    expect(resolveAgentIdentity({ serverUid: 0, serverGid: 0, uid: 4000, gid: 4100 })).toEqual({
      kind: 'ok',
      identity: { uid: 4000, gid: 4100 },
    });
  });

  test.each([
    ['uid 0', { uid: 0 }, 'GENSWARMS_AGENT_UID'],
    ['gid 0', { uid: 5, gid: 0 }, 'GENSWARMS_AGENT_GID'],
    ['a negative uid', { uid: -1 }, 'GENSWARMS_AGENT_UID'],
    ['a fractional uid', { uid: 1.5 }, 'GENSWARMS_AGENT_UID'],
    ['a uid above int32', { uid: AGENT_ID_MAX + 1 }, 'GENSWARMS_AGENT_UID'],
    ['NaN', { gid: Number.NaN }, 'GENSWARMS_AGENT_GID'],
  ])('refuses %s', (_name, ids, variable) => {
    expect(resolveAgentIdentity({ serverUid: 0, serverGid: 0, ...ids })).toMatchObject({ kind: 'invalid', variable });
  });

  it('refuses another uid or gid than its own for a non-root server (it could not switch)', () => {
    expect(resolveAgentIdentity({ serverUid: 1000, serverGid: 1000, uid: 4000 })).toMatchObject({
      kind: 'invalid',
      variable: 'GENSWARMS_AGENT_UID',
    });
    expect(resolveAgentIdentity({ serverUid: 1000, serverGid: 1000, gid: 4000 })).toMatchObject({
      kind: 'invalid',
      variable: 'GENSWARMS_AGENT_GID',
    });
  });
});

describe('parseAgentId (GENSWARMS_AGENT_UID / GENSWARMS_AGENT_GID text)', () => {
  test.each([
    ['1', 1],
    ['65532', 65532],
    [' 4000 ', 4000],
    [String(AGENT_ID_MAX), AGENT_ID_MAX],
  ])('accepts %j', (raw, value) => {
    expect(parseAgentId(raw)).toBe(value);
  });

  test.each([
    '0',
    '00',
    '-1',
    '+5',
    '1.0',
    '1e3',
    '0x10',
    'abc',
    '',
    ' ',
    '12a',
    String(AGENT_ID_MAX + 1),
    '4294967295',
    '99999999999',
    '1\0',
    '١٢٣',
    '__proto__',
  ])('refuses %j', (raw) => {
    expect(parseAgentId(raw)).toBeUndefined();
  });
});

describe('the agent identity on argv and in the container spec', () => {
  it("prefixes a root server's unsandboxed client with setpriv --reuid/--regid/--clear-groups", () => {
    expect(privilegeDropWords(ctxFor(0, 0, { agent: { uid: 4000, gid: 4100 } }), 'a')).toEqual([
      '/usr/bin/setpriv',
      '--reuid=4000',
      '--regid=4100',
      '--clear-groups',
      '--',
    ]);
    expect(privilegeDropWords(ctxFor(1000, 1000), 'a')).toEqual([]);
  });

  it("refuses a root server's unsandboxed client without setpriv (binary_missing), never runs it as root", () => {
    expect(() => privilegeDropWords(ctxFor(0, 0, { binaries: { node: '/usr/bin/node' } }), 'a')).toThrow(
      expect.objectContaining({ code: 'binary_missing' }),
    );
  });

  test.each([
    ['a root server (default pair)', ctxFor(0, 0), `${DEFAULT_AGENT_UID}:${DEFAULT_AGENT_GID}`],
    ['a root server (configured pair)', ctxFor(0, 0, { agent: { uid: 4000, gid: 4100 } }), '4000:4100'],
    ['a non-root server', ctxFor(1000, 1001), '1000:1001'],
  ])('gives the container a non-zero User for %s', (_name, ctx, user) => {
    const plan = {
      spec: makeSpec({ workspace: '/w', backend: 'docker' }),
      sessionId: 's',
      stateDir: '/gs/state/s/a',
      clientArgv: ['x'],
      env: {},
      mounts: [],
      notices: [],
    } as LaunchPlan;
    expect(buildContainerSpec(plan, ctx, 'img').User).toBe(user);
  });

  it('buildRunnerContext resolves the identity once, and refuses uid 0 (validation_failed)', () => {
    const base = {
      path: TEST_PATH,
      home: '/tmp',
      uid: 0,
      gid: 0,
      agentEntry: '/a/main.js',
      node: process.execPath,
      llm: { allowedHosts: [] },
    };
    expect(buildRunnerContext(base).agent).toEqual({ uid: DEFAULT_AGENT_UID, gid: DEFAULT_AGENT_GID });
    expect(buildRunnerContext({ ...base, agentUid: 4000, agentGid: 4100 }).agent).toEqual({ uid: 4000, gid: 4100 });
    expect(() => buildRunnerContext({ ...base, agentUid: 0 })).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
