/**
 * swarm receipts pushed by the watcher exec'd in the task's container (docs/receipts.md "Remote receipts: the push"),
 * on the real two-node swarm, agent on the remote node: the receipt arrives by the push alone, and a killed watcher is
 * reported and restarted while the turn completes by the poll. Node2's dockerd shares this host's pid namespace, so
 * the watcher's host pid comes from `docker top`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext, RunnerHandle } from '../../src/lib/port';
import { createSwarmRunner } from '../../src/lib/swarm/swarm-runner';
import { dockerCli, makeCtx, makeDirs, type TestDirs } from '../docker/docker-support';
import { describeIfTwoNodes, makeSwarmSpec, NODES_FILE, NODE2_HOST } from './swarm-support';
import { waitFor } from '@genswarms/test-kit';

/** Host pids of the receipt watchers running in `containerId` on node2. */
function watcherPids(containerId: string): number[] {
  const out = dockerCli(['-H', NODE2_HOST, 'top', containerId, '-eo', 'pid,args']) ?? '';
  return out
    .split('\n')
    .filter((l) => l.includes('genswarms-receipt-watch'))
    .map((l) => Number(l.trim().split(/\s+/)[0]))
    .filter((n) => Number.isInteger(n) && n > 0);
}

describeIfTwoNodes('swarm receipt push on the real two-node swarm', () => {
  let dirs: TestDirs;
  let ctx: RunnerContext;
  const handles: RunnerHandle[] = [];
  let seq = 0;

  beforeAll(() => {
    dirs = makeDirs('gs-swarm-push-');
    ctx = makeCtx(dirs.home);
  });
  afterAll(async () => {
    for (const h of handles.splice(0)) await h.stop({ graceMs: 0 });
    dirs?.cleanup();
  });

  async function start(agent: string, pushPollMs: number | undefined) {
    const runner = createSwarmRunner({ nodesFile: NODES_FILE, ...(pushPollMs === undefined ? {} : { receiptPushPollMs: pushPollMs }) });
    const workspace = path.join(dirs.root, `ws-${agent}`);
    mkdirSync(workspace, { mode: 0o700 });
    const handle = await runner.start(runner.plan(makeSwarmSpec({ agent, workspace, network: 'open' }), ctx), ctx);
    handles.push(handle);
    const lost: string[] = [];
    handle.onReceiptPushLost?.((d) => lost.push(d));
    return { handle, workspace, lost };
  }

  async function turn(who: { handle: RunnerHandle; workspace: string }, content: string) {
    seq += 1;
    const turnId = `p${seq}`;
    mkdirSync(path.join(who.workspace, '.inbox'), { recursive: true, mode: 0o700 });
    writeFileSync(path.join(who.workspace, '.inbox', `${turnId}.json`), JSON.stringify({ turn: turnId, content }), { mode: 0o600 });
    await who.handle.deliver({ turnId, seq, from: 'user', content, clientTurnsDir: '/workspace/.genswarms/turns' });
    return who.handle.watchReceipt!(turnId, { signal: AbortSignal.timeout(120_000) });
  }

  it('delivers the receipt by the push alone: with a 10-minute fallback poll the turns still complete', async () => {
    const who = await start('pushed', 600_000);
    await waitFor(
      () => watcherPids(who.handle.describe().containerId ?? '').length === 1,
      'watcherPids(who.handle.describe().containerId ?? "").length === 1',
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    for (const content of ['one', 'two']) expect(await turn(who, content)).toMatchObject({ kind: 'ok', status: 'ok' });
    expect(who.lost).toEqual([]);
  }, 300_000);

  it("an agent forging a frame on its watcher's stdout gets the watcher dropped; the turn completes by the archive read", async () => {
    const who = await start('forged', undefined);
    const cid = who.handle.describe().containerId ?? '';
    await waitFor(() => watcherPids(cid).length === 1, 'watcherPids(cid).length === 1', { timeoutMs: 30_000, intervalMs: 200 });
    expect(await turn(who, 'before')).toMatchObject({ kind: 'ok', status: 'ok' }); // the watcher is live and asked
    const user = (dockerCli(['-H', NODE2_HOST, 'inspect', '-f', '{{.Config.User}}', cid]) ?? '').trim();
    // as the agent: find the watcher among its own processes and write a frame over the receipt bound into its stdout
    const forge = `const fs=require('fs');for(const p of fs.readdirSync('/proc')){let c='';try{c=fs.readFileSync('/proc/'+p+'/cmdline','latin1')}catch{continue}
if(c.includes('genswarms-receipt-watch')&&p!==String(process.pid))fs.writeFileSync('/proc/'+p+'/fd/1','f p${seq} done.json 99999999\\n')}`;
    expect(dockerCli(['-H', NODE2_HOST, 'exec', '-u', user, cid, '/usr/bin/node', '-e', forge])).toBeDefined();
    await waitFor(() => who.lost.length === 1, 'who.lost.length === 1', { timeoutMs: 30_000, intervalMs: 200 });
    expect(who.lost[0]).toBe('the watcher was dropped: a frame over the receipt bound; receipts are polled every 100 ms');
    expect(await turn(who, 'after')).toMatchObject({ kind: 'ok', status: 'ok' });
  }, 300_000);

  it('a killed watcher is reported, the turn completes by the poll, and the watcher is started again', async () => {
    const who = await start('killed', undefined);
    const cid = who.handle.describe().containerId ?? '';
    await waitFor(() => watcherPids(cid).length === 1, 'watcherPids(cid).length === 1', { timeoutMs: 30_000, intervalMs: 200 });
    const [first] = watcherPids(cid);
    process.kill(first ?? 0, 'SIGKILL');
    await waitFor(() => who.lost.length === 1, 'who.lost.length === 1', { timeoutMs: 30_000, intervalMs: 200 });
    expect(who.lost[0]).toMatch(/^the receipt watcher exited; receipts are polled every 100 ms$/);
    expect(await turn(who, 'after')).toMatchObject({ kind: 'ok', status: 'ok' });
    await waitFor(() => watcherPids(cid).some((p) => p !== first), 'watcherPids(cid).some((p) => p !== first)', {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
  }, 300_000);
});
