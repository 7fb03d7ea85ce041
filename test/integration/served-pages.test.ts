import { expect } from 'chai';
import { harness } from '../helpers/harness.js';
import { chromiumAvailable, openBrowser } from '../helpers/browser.js';

/*
 * The pages the service serves besides the API: the console's and the queue board's. They load
 * nothing from another host (no web fonts, no CDNs), and the site has an icon.
 */

const adminBasic = () => `Basic ${Buffer.from(`admin:${harness().adminToken}`).toString('base64')}`;

/** GETs a page of the service (as the site admin on the board); fails unless it answers 200. */
async function fetched(url: string): Promise<{ text: string; type: string }> {
  const res = await fetch(url, {
    headers: {
      Accept: 'text/html',
      ...(new URL(url).pathname.startsWith('/admin/queues') ? { Authorization: adminBasic() } : {}),
    },
  });
  const text = await res.text();
  expect(res.status, `${url}: ${text.slice(0, 200)}`).to.equal(200);
  return { text, type: res.headers.get('content-type') ?? '' };
}

/** Every absolute http(s) URL a text names. */
const absoluteUrls = (text: string) => [...text.matchAll(/https?:\/\/[^\s"'()<>]+/g)].map((m) => m[0]);

/**
 * A page's HTML and every stylesheet it links, with the URLs each names outside the service's own
 * origin. An SVG namespace name (`http://www.w3.org/2000/svg` in an inline image) is an
 * identifier, never fetched.
 */
async function foreignReferences(pageUrl: string): Promise<{ loaded: string[]; foreign: string[] }> {
  const origin = new URL(harness().baseUrl).origin;
  const page = await fetched(pageUrl);
  const base = new URL(/<base\s+href="([^"]+)"/i.exec(page.text)?.[1] ?? pageUrl, pageUrl);
  const sheets = [...page.text.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/gi)].map(
    (m) => /href="([^"]+)"/.exec(m[0])![1],
  );
  const loaded = [pageUrl];
  const texts = [page.text];
  for (const href of sheets) {
    const url = new URL(href, base);
    loaded.push(url.href);
    if (url.origin !== origin) continue;
    const sheet = await fetched(url.href);
    expect(sheet.type).to.match(/text\/css/);
    texts.push(sheet.text);
  }
  const foreign = [...sheets.map((href) => new URL(href, base).href), ...texts.flatMap(absoluteUrls)].filter(
    (u) => new URL(u).origin !== origin && !/^http:\/\/www\.w3\.org\/2000\/svg$/.test(u),
  );
  return { loaded, foreign };
}

describe('pages served besides the API', function () {
  this.timeout(60_000);

  it("serves the site icon at /favicon.ico and names it in the console's page", async () => {
    const { baseUrl } = harness();
    const icon = await fetch(`${baseUrl}/favicon.ico`);
    const svg = await icon.text();
    expect(icon.status).to.equal(200);
    expect(icon.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(svg).to.match(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const page = await fetched(`${baseUrl}/app/workspaces`);
    const link = /<link\b[^>]*rel="icon"[^>]*>/.exec(page.text)?.[0];
    expect(link, page.text).to.be.a('string');
    const href = /href="([^"]+)"/.exec(link!)![1];
    expect(href).to.equal('/app/favicon.svg');
    const named = await fetch(`${baseUrl}${href}`);
    expect(named.status).to.equal(200);
    expect(await named.text()).to.equal(svg);
  });

  it("loads nothing from another host: the console's and the queue board's HTML and stylesheets name only the service", async () => {
    const { baseUrl } = harness();
    for (const page of [`${baseUrl}/app/`, `${baseUrl}/admin/queues/`]) {
      const { loaded, foreign } = await foreignReferences(page);
      expect(loaded.length, `${page}: its stylesheets`).to.be.at.least(2);
      expect(foreign, page).to.deep.equal([]);
    }
  });

  it('shows the queue board in Chromium with no request to another host and nothing its policy blocks', async function () {
    if (!chromiumAvailable()) this.skip();
    const { baseUrl } = harness();
    const browser = await openBrowser(baseUrl);
    try {
      const blocked: string[] = [];
      browser.page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) blocked.push(m.text());
      });
      await browser.context.setExtraHTTPHeaders({ Authorization: adminBasic() });
      const res = await browser.page.goto(`${baseUrl}/admin/queues/`);
      expect(res?.status()).to.equal(200);
      expect(res?.headers()['content-security-policy']).to.match(/default-src 'self'/);
      // The board lists the service's queues once its script has run.
      await browser.page.getByText('run-pipeline').first().waitFor();
      await browser.page.waitForLoadState('networkidle');
      expect(browser.foreign).to.deep.equal([]);
      expect(blocked).to.deep.equal([]);
    } finally {
      await browser.close();
    }
  });
});
