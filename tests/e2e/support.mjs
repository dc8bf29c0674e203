// Shared pieces of the end-to-end tests: the release build served from dist/, Debian's
// Chromium driven by playwright-core (no browser download), screenshots, page-error capture,
// axe-core, and the lab's own waits (a run finished, a step shown).
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
 * error, console error and failed request in `page.problems`. `storage` pre-fills
 * localStorage before the app starts; `hash` is appended to the URL.
 */
export async function openApp(
  env,
  { colorScheme = 'light', viewport = { width: 1280, height: 900 }, storage = null, hash = '', wait = true } = {},
) {
  // bypassCSP: axe-core is injected as an inline script, which the build's CSP (rightly)
  // refuses; share.test.mjs checks the CSP itself in contexts without this.
  const context = await env.browser.newContext({ viewport, colorScheme, bypassCSP: true });
  if (storage) {
    await context.addInitScript((entries) => {
      if (!sessionStorage.getItem('podlab.e2e.seeded')) {
        for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
        sessionStorage.setItem('podlab.e2e.seeded', '1');
      }
    }, storage);
  }
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && page.problems.push(`console error: ${m.text()}`));
  page.on('requestfailed', (r) => page.problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && page.problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.goto(env.url + hash);
  if (wait) await waitForRun(page, 0);
  return page;
}

/** The number of runs the page has finished (`data-runs` on <main>). */
export async function runs(page) {
  return Number((await page.getAttribute('main.lab', 'data-runs')) ?? '0');
}

/**
 * Waits until the page has finished more than `after` runs and (unless `timeline` is false,
 * for runs that cannot start) rendered the timeline.
 */
export async function waitForRun(page, after, { timeline = true } = {}) {
  await page.waitForFunction(
    (n) => Number(document.querySelector('main.lab')?.dataset.runs ?? 0) > n,
    after,
    { timeout: 20_000 },
  );
  // Rendered, not necessarily shown: on a phone the timeline is in the Journey view.
  if (timeline) await page.waitForSelector('#phases > li', { state: 'attached' });
}

/** Picks a starter from the menu and waits for its run. */
export async function pickStarter(page, id) {
  const before = await runs(page);
  await page.selectOption('#starter', id);
  await waitForRun(page, before);
}

/** Replaces the manifest and waits for the engine's run of it. */
export async function typeManifest(page, text) {
  const before = await runs(page);
  await page.fill('#manifest', text);
  await waitForRun(page, before);
}

/** Goes to the last step and waits until it is shown. */
export async function stepToEnd(page) {
  if (await page.isEnabled('#last')) await page.click('#last');
  await page.waitForFunction(() => {
    const m = /Step (\d+) of (\d+)/.exec(document.querySelector('#position')?.textContent ?? '');
    return m && m[1] === m[2];
  });
}

/** Shows a kubectl pane and returns its text. */
export async function pane(page, label) {
  await page.getByRole('tab', { name: label, exact: true }).click();
  return (await page.textContent('#pane-body')) ?? '';
}

export function screenshot(page, name, options = {}) {
  return page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), ...options });
}

/** The text of every element matching `selector`, trimmed. */
export function texts(page, selector) {
  return page.locator(selector).allTextContents().then((all) => all.map((t) => t.trim()));
}

/** Runs axe-core (WCAG 2.0/2.1/2.2 A and AA rules) on the page; resolves to its violations. */
export async function axeViolations(page) {
  const require = createRequire(import.meta.url);
  // Let colour transitions (hover, a tab just selected) settle first.
  await page.waitForTimeout(300);
  if (!(await page.evaluate(() => Boolean(window.axe)))) {
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  }
  const result = await page.evaluate(() =>
    window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    }),
  );
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}
