import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { CHROMIUM_PATH, openBrowser } from './support/browser';
import type { BrowserSession } from './support/browser';
import { startServerProcess } from './support/server-process';
import type { ServerProcess } from './support/server-process';

// The agent page of an agent with a git workspace: its changed files and its diff, as text (docs/dashboard.md).
const TOKEN = 'dashboard-git-test-token';
/** A file name and a line that would be markup if the page ever parsed the agent's text as HTML. */
const HOSTILE_NAME = '<img src=x onerror=top.p=1>.txt';
const HOSTILE_LINE = '<script>top.p=2</script>';
const describeBrowser = existsSync(CHROMIUM_PATH) ? describe : describe.skip;

function git(cwd: string, args: readonly string[]): void {
  const r = spawnSync('/usr/bin/git', [...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

describeBrowser('the agent page shows an agent’s git work', () => {
  let server: ServerProcess;
  let s: BrowserSession;
  let page: Page;
  let roots: string;
  beforeAll(async () => {
    roots = realpathSync(mkdtempSync(join(tmpdir(), 'gs-dash-git-')));
    chmodSync(roots, 0o755);
    const repo = join(roots, 'repo');
    mkdirSync(repo);
    git(repo, ['init', '-q']);
    writeFileSync(join(repo, 'lib.txt'), 'one\n');
    git(repo, ['add', '.']);
    git(repo, ['-c', 'user.name=op', '-c', 'user.email=op@example.com', 'commit', '-qm', 'first']);
    server = await startServerProcess({ GENSWARMS_API_TOKEN: TOKEN, GENSWARMS_WORKSPACE_ROOTS: roots });
    const config = { name: 'gitdash', agents: [{ name: 'dev', backend: 'mock', workspace: { git: repo } }] };
    const res = await fetch(`${server.url}/api/swarms`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ config }),
    });
    expect(res.status).toBe(201);
    const ws = join(server.base, 'home', 'workspaces', 'gitdash', 'dev');
    // the agent's own files (the host reads no file of another uid in a workspace)
    const owner = statSync(ws);
    for (const [name, text] of [
      ['lib.txt', `one\n${HOSTILE_LINE}\n`],
      [HOSTILE_NAME, 'x\n'],
    ] as const) {
      writeFileSync(join(ws, name), text);
      chownSync(join(ws, name), owner.uid, owner.gid);
    }
    s = await openBrowser();
    page = s.page;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await server?.stop(TOKEN);
    rmSync(roots, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(s?.problems.splice(0) ?? []).toEqual([]);
  });

  it('lists the changed files and shows the diff as text, with nothing of the agent’s parsed as HTML', async () => {
    await page.goto(`${server.url}/ui/`, { waitUntil: 'networkidle0' });
    await page.evaluate((t: string) => sessionStorage.setItem('genswarms.token', t), TOKEN);
    await page.goto(`${server.url}/ui/#/swarms/gitdash/agents/dev`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('#git-files', { timeout: 30_000 });
    const files = await page.$$eval('#git-files tbody tr td:first-child', (els) => els.map((e) => e.textContent));
    expect(files.sort()).toEqual([HOSTILE_NAME, 'lib.txt'].sort());
    expect(await page.$eval('#git-diff', (el) => el.textContent ?? '')).toContain(`+${HOSTILE_LINE}`);
    expect(await page.$$eval('#git-work img, #git-work script', (els) => els.length)).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { p?: number }).p)).toBeUndefined();
    expect(await s.axeSeriousViolations()).toEqual([]);
    await s.screenshot('git-work-agent');
  }, 60_000);
});
