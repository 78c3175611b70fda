import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import type { Browser, Page } from 'puppeteer-core';

/** Debian's chromium package (CI installs it); puppeteer-core never downloads a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** Screenshots of every page (git-ignored; CI keeps the folder; docs/dashboard.md shows them). */
export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'test-output', 'screenshots');

/** Flags: headless, no sandbox (root in CI), and nothing that calls out (a closed network refuses it). */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface Problem {
  readonly kind: 'console' | 'pageerror' | 'csp';
  readonly text: string;
}

export interface BrowserSession {
  readonly browser: Browser;
  readonly page: Page;
  /** Console errors, uncaught page errors and CSP violations seen so far. */
  readonly problems: Problem[];
  /** Expected refusals (`Failed to load resource` for an API call the page shows as an error) are dropped. */
  readonly expectedApiStatus: Set<number>;
  screenshot(name: string): Promise<void>;
  /** axe-core over the current page: violations of impact serious or critical. */
  axeSeriousViolations(): Promise<{ id: string; impact: string; nodes: number; help: string }[]>;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), 'gs-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...FLAGS, `--user-data-dir=${profile}`],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  const problems: Problem[] = [];
  const expectedApiStatus = new Set<number>();
  // CDP-injected (not an inline script), so the page's CSP does not block the listener itself.
  await page.exposeFunction('__reportCsp', (text: string) => problems.push({ kind: 'csp', text }));
  await page.evaluateOnNewDocument(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportCsp: (t: string) => void }).__reportCsp(
        `${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    const status = /status of (\d{3})/.exec(text)?.[1];
    const where = msg.location().url ?? '';
    if (status !== undefined && expectedApiStatus.has(Number(status)) && where.includes('/api/')) return;
    problems.push({ kind: 'console', text: `${text} @ ${where}` });
  });
  page.on('pageerror', (err) => problems.push({ kind: 'pageerror', text: err instanceof Error ? err.message : String(err) }));
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return {
    browser,
    page,
    problems,
    expectedApiStatus,
    screenshot: async (name) => {
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) as `${string}.png`, fullPage: true });
    },
    axeSeriousViolations: async () => {
      // Runtime.evaluate (DevTools), not a <script> tag: the CSP stays as served.
      await page.evaluate(axeSource);
      const result = (await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (
                ctx: Document,
                opts: object,
              ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: unknown[] }[] }>;
            };
          }
        ).axe;
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
      })) as { id: string; impact: string; nodes: number; help: string }[];
      return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    },
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
