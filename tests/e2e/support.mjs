// Shared pieces of the end-to-end tests: the release build served from dist/, Debian's
// Chromium driven by playwright-core (no browser download), screenshots, page-error capture.
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDir } from '../../scripts/static-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
export const SCREENSHOTS = join(here, 'screenshots');
const CHROMIUM = process.env.PODLAB_CHROMIUM || '/usr/bin/chromium';

// Flags for a closed network and a root user: no sandbox, no GPU, and no background
// connections (refused here, and slow when they are).
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Serves dist/ on a free loopback port and starts Chromium; call `stop()` when done. */
export async function start() {
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error('dist/index.html is missing: build it with `trunk build index.html --release`');
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: run scripts/setup.sh (apt-get install chromium)`);
  }
  const { server, url } = await serveDir(dist);
  // launch() gives every browser a fresh, temporary user-data-dir of its own.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    url,
    browser,
    async stop() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/**
 * Opens the app in a new browser context (its own localStorage) and records every page
 * error, console error and failed request in `page.problems`.
 */
export async function openApp(env, { colorScheme = 'light' } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 760 }, colorScheme });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && page.problems.push(`console error: ${m.text()}`));
  page.on('requestfailed', (r) => page.problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && page.problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.goto(env.url);
  await waitForApp(page);
  return page;
}

/** Waits until the WebAssembly app has mounted and rendered the engine's result. */
export async function waitForApp(page) {
  await page.waitForSelector('#documents', { timeout: 15_000 });
  await page.waitForSelector('#doc-count');
}

export function screenshot(page, name) {
  return page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** The text of every element matching `selector`, trimmed. */
export function texts(page, selector) {
  return page.locator(selector).allTextContents().then((all) => all.map((t) => t.trim()));
}

/** Runs axe-core on the page; resolves to its violations. */
export async function axeViolations(page) {
  const require = createRequire(import.meta.url);
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
