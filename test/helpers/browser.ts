import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { toolPresent } from './tools.js';

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
