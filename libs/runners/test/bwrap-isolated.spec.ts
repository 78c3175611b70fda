import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerHandle } from '../src/index';
import { createBwrapRunner } from '../src/index';
import { FIXTURES, haveBinary, makeContext, makeSandboxDirs, makeSpec, waitForFile } from './support';

const ready = haveBinary('bwrap') && haveBinary('socat');
const suite = ready ? describe : describe.skip;
if (!ready) console.warn('SKIPPED bwrap-isolated: bubblewrap or socat is not installed');

suite('bwrap runner, network isolated (real socat forwarder)', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  let server: http.Server;
  let port = 0;
  const seen: Array<{ url: string | undefined; host: string | undefined }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url, host: req.headers.host });
      res.end('llm-ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 500 });
    handle = undefined;
    dirs.cleanup();
  });

  it('reaches only the pinned LLM through the bridge; the host is unreachable directly; stop removes the forwarder', async () => {
    const endpoint = `http://127.0.0.1:${port}/v1`;
    const ctx = makeContext(dirs.home, {
      agentEntry: path.join(FIXTURES, 'fetch-llm.js'),
      llm: { defaultEndpoint: endpoint, allowedHosts: [] },
    });
    const runner = createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      network: 'isolated',
      workspace: dirs.workspace,
      config: { env: { FETCH_OUT: '/workspace/fetch.json', DIRECT_URL: `http://127.0.0.1:${port}/direct` } },
    });
    const plan = runner.plan(spec, ctx);
    handle = await runner.start(plan, ctx);
    const result = JSON.parse(await waitForFile(path.join(dirs.workspace, 'fetch.json'))) as {
      viaBridge: { ok: boolean; body?: string };
      direct: { ok: boolean; body?: string };
    };
    expect(result.viaBridge).toMatchObject({ ok: true, body: 'llm-ok' });
    expect(seen).toContainEqual({ url: '/v1/models', host: `127.0.0.1:${port}` });
    // 127.0.0.1:<port> inside the sandbox is the sandbox's own loopback: nothing listens there.
    expect(result.direct.ok).toBe(false);
    expect(seen.some((s) => s.url === '/direct')).toBe(false);
    const egressDir = path.join(dirs.home, 'egress', 'swarm1', 'agent1');
    await handle.stop({ graceMs: 500 });
    handle = undefined;
    expect(existsSync(egressDir)).toBe(false);
  });
});
