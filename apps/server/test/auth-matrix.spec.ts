import { TOKEN_REQUIRED_BODY, UNAUTHORIZED_BODY } from '@genswarms/security';
import type { TokenConfig } from '@genswarms/security';
import { httpRequest, trySocket } from './support/clients';
import type { SocketOutcome } from './support/clients';
import { startTestServer, tempDir, testConfig } from './support/harness';
import type { TestServer } from './support/harness';
import { createTestNetns, startRemoteAgent } from './support/netns';
import type { RemoteAgent, TestNetns } from './support/netns';

const F = 'full-token-abc';
const C = 'config-token-xyz';
type Header = 'none' | 'F' | 'C' | 'wrong';
type Expect = 'allow' | 'unauthorized' | 'token_required';
type Combo = 'none' | 'both' | 'config-only' | 'full-only';
const COMBOS: Record<Combo, TokenConfig> = {
  none: {},
  both: { fullToken: F, configToken: C },
  'config-only': { configToken: C },
  'full-only': { fullToken: F },
};

// docs/security.md table: [tokens, peer, header, full-scope route, config-scope route]
const ROWS: Array<[Combo, 'loopback' | 'remote', Header, Expect, Expect]> = [
  ['none', 'loopback', 'none', 'allow', 'allow'],
  ['none', 'remote', 'none', 'token_required', 'token_required'],
  ['none', 'remote', 'wrong', 'token_required', 'token_required'],
  ['none', 'remote', 'F', 'token_required', 'token_required'],
  ['both', 'loopback', 'F', 'allow', 'allow'],
  ['both', 'remote', 'F', 'allow', 'allow'],
  ['both', 'loopback', 'C', 'unauthorized', 'allow'],
  ['both', 'remote', 'C', 'unauthorized', 'allow'],
  ['both', 'loopback', 'none', 'unauthorized', 'unauthorized'],
  ['both', 'remote', 'none', 'unauthorized', 'unauthorized'],
  ['both', 'loopback', 'wrong', 'unauthorized', 'unauthorized'],
  ['both', 'remote', 'wrong', 'unauthorized', 'unauthorized'],
  ['config-only', 'loopback', 'none', 'allow', 'unauthorized'],
  ['config-only', 'loopback', 'C', 'allow', 'allow'],
  ['config-only', 'remote', 'C', 'token_required', 'allow'],
  ['config-only', 'remote', 'none', 'token_required', 'unauthorized'],
  ['full-only', 'loopback', 'F', 'allow', 'allow'],
  ['full-only', 'remote', 'F', 'allow', 'allow'],
  ['full-only', 'loopback', 'none', 'unauthorized', 'unauthorized'],
  ['full-only', 'remote', 'none', 'unauthorized', 'unauthorized'],
];

const FULL_ROUTE = '/api/swarms';
const CONFIG_ROUTE = '/api/swarms/demo/overlay';

function authHeader(h: Header): Record<string, string> {
  const token = { none: undefined, F, C, wrong: 'wrong-token' }[h];
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}
function socketAuth(h: Header): { auth?: { token: string } } {
  const token = { none: undefined, F, C, wrong: 'wrong-token' }[h];
  return token === undefined ? {} : { auth: { token } };
}

type HttpResult = { status: number; body: string; wwwAuthenticate: string | null };

function expectHttp(res: HttpResult, want: Expect): void {
  if (want === 'allow') {
    expect(res.status).not.toBe(401);
    expect(res.status).not.toBe(403);
    return;
  }
  expect(res.status).toBe(401);
  expect(res.wwwAuthenticate).toBe('Bearer');
  expect(JSON.parse(res.body)).toEqual(want === 'unauthorized' ? UNAUTHORIZED_BODY : TOKEN_REQUIRED_BODY);
}

function expectSocket(res: SocketOutcome | Record<string, unknown>, want: Expect): void {
  if (want === 'allow') {
    expect(res).toMatchObject({ connected: true, ack: { ok: false, error: 'swarm_not_found' } });
    return;
  }
  expect(res).toMatchObject({ connected: false, message: want, data: want === 'unauthorized' ? UNAUTHORIZED_BODY : TOKEN_REQUIRED_BODY });
}

const dir = tempDir('gs-matrix-');
const loopbackServers = new Map<Combo, TestServer>();
const remoteServers = new Map<Combo, TestServer>();
let ns: TestNetns | undefined;
let agent: RemoteAgent | undefined;
let netnsUnavailable: string | undefined;

beforeAll(async () => {
  for (const combo of Object.keys(COMBOS) as Combo[]) {
    loopbackServers.set(combo, await startTestServer(testConfig(dir.path, { tokens: COMBOS[combo] })));
  }
  const created = await createTestNetns();
  if ('unavailable' in created) {
    netnsUnavailable = created.unavailable;
    console.warn(`SKIPPING remote-peer rows of the auth matrix: ${netnsUnavailable}`);
    return;
  }
  ns = created;
  agent = await startRemoteAgent(ns);
  for (const combo of Object.keys(COMBOS) as Combo[]) {
    remoteServers.set(combo, await startTestServer(testConfig(dir.path, { tokens: COMBOS[combo], bindAddress: ns.hostIp })));
  }
});

afterAll(async () => {
  for (const s of [...loopbackServers.values(), ...remoteServers.values()]) await s.close();
  await agent?.stop();
  await ns?.destroy();
  dir.cleanup();
});

async function httpFrom(peer: 'loopback' | 'remote', url: string, headers: Record<string, string>): Promise<HttpResult> {
  if (peer === 'loopback') {
    const res = await httpRequest(url, { headers });
    return { status: res.status, body: res.body, wwwAuthenticate: res.headers.get('www-authenticate') };
  }
  const res = await agent!.send({ kind: 'http', url, headers });
  const h = res['headers'] as Record<string, string>;
  return { status: res['status'] as number, body: res['body'] as string, wwwAuthenticate: h['www-authenticate'] ?? null };
}

describe.each(ROWS)('tokens=%s peer=%s header=%s', (combo, peer, header, full, config) => {
  const server = (): TestServer | undefined => (peer === 'loopback' ? loopbackServers : remoteServers).get(combo);
  const skip = (): boolean => {
    if (peer === 'remote' && netnsUnavailable !== undefined) {
      console.warn(`SKIPPED (no netns): ${netnsUnavailable}`);
      return true;
    }
    return false;
  };

  it(`full-scope REST route → ${full}`, async () => {
    if (skip()) return;
    expectHttp(await httpFrom(peer, `${server()!.url}${FULL_ROUTE}`, authHeader(header)), full);
  });

  it(`config-scope REST route → ${config}`, async () => {
    if (skip()) return;
    expectHttp(await httpFrom(peer, `${server()!.url}${CONFIG_ROUTE}`, authHeader(header)), config);
  });

  it(`GET /metrics (full scope) → ${full}`, async () => {
    if (skip()) return;
    expectHttp(await httpFrom(peer, `${server()!.url}/metrics`, authHeader(header)), full);
  });

  it('GET /healthz and /readyz answer {status} without the token (docs/security.md, "Health endpoints")', async () => {
    if (skip()) return;
    for (const [path, status] of [
      ['/healthz', 'ok'],
      ['/readyz', 'not_ready'], // these servers have no engine: never ready
    ] as const) {
      const res = await httpFrom(peer, `${server()!.url}${path}`, authHeader(header));
      expect([path, res.status, JSON.parse(res.body)]).toEqual([path, status === 'ok' ? 200 : 503, { status }]);
    }
  });

  it(`socket.io /swarm (full scope) → ${full}`, async () => {
    if (skip()) return;
    const url = server()!.url;
    const res =
      peer === 'loopback'
        ? await trySocket(url, socketAuth(header))
        : await agent!.send({ kind: 'socket', url: `${url}/swarm`, opts: socketAuth(header) });
    expectSocket(res, full);
  });
});

describe('remote peer through a real socket from another network namespace', () => {
  it('sees the namespace address as the peer and records it in auth_denied', async () => {
    if (ns === undefined) {
      console.warn(`SKIPPED: ${netnsUnavailable}`);
      return;
    }
    const server = remoteServers.get('none')!;
    const res = await agent!.send({
      kind: 'http',
      url: `${server.url}/api/swarms`,
      headers: { 'x-forwarded-for': '127.0.0.1', forwarded: 'for=127.0.0.1', 'x-real-ip': '127.0.0.1' },
    });
    expect(res['status']).toBe(401);
    expect(JSON.parse(res['body'] as string)).toEqual(TOKEN_REQUIRED_BODY);
    const denial = server.events.events.find((e) => e.event_type === 'auth_denied' && e.metadata['peer'] === ns!.nsIp);
    expect(denial?.metadata).toMatchObject({ peer: ns.nsIp, transport: 'http', reason: 'token_required' });
  });
});
