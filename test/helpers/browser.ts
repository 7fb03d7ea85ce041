import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { toolPresent } from './tools.js';
import { waitFor } from './processes.js';

/** Debian's Chromium (`apt-get install -y chromium`); Playwright drives it, nothing is downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumAvailable = () => toolPresent('Chromium', existsSync(CHROMIUM));

/** A quiet, headless Chromium that talks to nothing but what the page asks for. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where the console tests save screenshots of the pages they visit (gitignored). */
export const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');

export interface ConsoleBrowser {
  context: BrowserContext;
  page: Page;
  /** Requests a page made to any origin but the service's (each one is a failure: no CDNs, no fonts). */
  foreign: string[];
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile (its own --user-data-dir), a 1280×800 window, the viewer in a
 * time zone other than the machine's, and every request to another origin blocked and recorded.
 * `allow` lets through requests the flow itself sends elsewhere (terraform login's local listener).
 */
export async function openBrowser(
  baseUrl: string,
  opts: { timezoneId?: string; allow?: (url: URL) => boolean } = {},
): Promise<ConsoleBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: opts.timezoneId ?? 'Asia/Tokyo',
  });
  const origin = new URL(baseUrl).origin;
  const foreign: string[] = [];
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin === origin || url.protocol === 'data:' || opts.allow?.(url)) return route.continue();
    foreign.push(url.href);
    return route.abort('blockedbyclient');
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  // TEST_BROWSER_OUTPUT=1 shows the page's console messages and failed requests (for debugging a test).
  if (process.env.TEST_BROWSER_OUTPUT === '1') {
    page.on('console', (m) => process.stderr.write(`[page] ${m.type()}: ${m.text()}\n`));
    page.on(
      'response',
      (r) => r.status() >= 400 && process.stderr.write(`[page] ${r.status()} ${r.request().method()} ${r.url()}\n`),
    );
  }
  return {
    context,
    page,
    foreign,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot under test-output/screenshots. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/*
 * Runs in the page: every control's accessible name (aria-label, aria-labelledby, its label,
 * its text, its title, in that order) and the number of h1 headings. A string, so the test
 * program needs no DOM types.
 */
const A11Y = `(() => {
  const nameOf = (el) => {
    const aria = el.getAttribute('aria-label');
    if (aria && aria.trim()) return aria.trim();
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const t = by.split(/\\s+/).map((id) => (document.getElementById(id) || {}).textContent || '').join(' ').trim();
      if (t) return t;
    }
    if (el.labels && el.labels.length) {
      const t = Array.from(el.labels).map((l) => l.textContent || '').join(' ').trim();
      if (t) return t;
    }
    if (!['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName) && (el.textContent || '').trim()) return el.textContent.trim();
    return (el.getAttribute('title') || '').trim();
  };
  const unnamed = Array.from(document.querySelectorAll('button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]'))
    .filter((el) => !nameOf(el))
    .map((el) => el.outerHTML.slice(0, 160));
  return { unnamed, h1: Array.from(document.querySelectorAll('h1')).map((h) => (h.textContent || '').trim()) };
})()`;

/** Asserts accessibility basics of the current page: every control has a name, and there is exactly one h1. */
export async function checkAccessibility(page: Page, where: string): Promise<void> {
  const found = await page.evaluate<{ unnamed: string[]; h1: string[] }>(A11Y);
  expect(found.unnamed, `${where}: controls without an accessible name`).to.deep.equal([]);
  expect(found.h1, `${where}: one h1`).to.have.length(1);
  expect(found.h1[0], `${where}: the h1 says something`).to.not.equal('');
}

/** Asserts the page does not scroll sideways (content fits the viewport's width). */
export async function checkFitsWidth(page: Page, where: string): Promise<void> {
  const widths = await page.evaluate<{ scroll: number; client: number }>(
    '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
  );
  expect(widths.scroll, `${where}: page wider than the viewport`).to.be.at.most(widths.client + 1);
}

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Runs axe-core in the page and asserts it finds no serious or critical violation. The script is
 * evaluated through the debugging protocol, which the page's content security policy does not
 * govern, so the console's policy stays as strict as it is served.
 */
export async function checkAxe(page: Page, where: string): Promise<void> {
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"')))
    await page.evaluate(await readFile(AXE_SOURCE, 'utf8'));
  const found = await page.evaluate<{ id: string; impact: string; help: string; nodes: string[] }[]>(`
    axe.run(document, { resultTypes: ['violations'] }).then((r) =>
      r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`);
  expect(found, `${where}: serious accessibility violations`).to.deep.equal([]);
}

/** The two widths every page is checked at: a laptop's and a phone's. */
export const VIEWPORTS = [
  { name: 'wide', width: 1440, height: 900 },
  { name: 'narrow', width: 390, height: 844 },
] as const;

/**
 * Checks the current page at each width: a screenshot (test-output/screenshots/<name>-<width>.png),
 * axe-core's serious violations, and no sideways scrolling of the page itself.
 */
export async function checkAtEveryWidth(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const v of VIEWPORTS) {
    await page.setViewportSize({ width: v.width, height: v.height });
    await screenshot(page, `${name}-${v.width}`);
    await checkAxe(page, `${name} at ${v.width}px`);
    await checkFitsWidth(page, `${name} at ${v.width}px`);
  }
  if (before) await page.setViewportSize(before);
}

/** Waits for an h1 with `text` and for the page's first reads to settle, then checks its accessibility basics. */
export async function landed(page: Page, text: string | RegExp, where: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: text }).waitFor();
  await waitFor(async () => (await page.locator('.loading').count()) === 0, `${where}: loading to end`, 30_000);
  await checkAccessibility(page, where);
}
