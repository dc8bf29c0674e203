// End-to-end tests of the embeds' static preview (release build, dist/): the example docs page
// with five labs (examples/five-labs.html) loads a preview of each (the manifest, coloured, and
// Run in podlab) of at most 20 KB and no lab; a click, a key press or a scroll loads a lab, and
// all of them together fetch the .wasm over the network once; the iframe snippets' preview page
// (embed.html) reads the same URL as the lab, permalinks included, and swaps to the lab; axe
// finds nothing in light and dark.
//
// The docs page is served as a static host serves it (brotli, ETags; scripts/static-server.mjs
// with `compress`), and every request the server answers is logged, so the sizes are what a
// reader's browser downloads.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { serveDir } from '../../scripts/static-server.mjs';
import { screenshot, start } from './support.mjs';

const DIST = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'dist');
const BUDGET = 20 * 1024;
const EMBEDS = ['lab-pod', 'lab-pending', 'lab-rbac', 'lab-mine'];

let env;
let host;
/** Every response the docs host sent: {path, status, bytes}. */
let log = [];
before(async () => {
  env = await start();
  host = await serveDir(DIST, { compress: true });
  host.server.on('request', (req, res) => {
    // The server answers after an await: wrap end() to see the body it sends.
    const end = res.end;
    res.end = function (body, ...rest) {
      log.push({ path: new URL(req.url, 'http://x').pathname, status: res.statusCode, bytes: body?.length ?? 0 });
      return end.call(this, body, ...rest);
    };
  });
});
after(async () => {
  await new Promise((ok) => host?.server.close(ok));
  host?.server.closeAllConnections?.();
  await env?.stop();
});

/** A fresh context (own cache and storage) at `url`, recording problems and CSP violations. */
async function open(url, { colorScheme = 'light', bypassCSP = false } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme, bypassCSP });
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`),
    );
  });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && page.problems.push(`console error: ${m.text()}`));
  context.on('response', (r) => r.status() >= 400 && page.problems.push(`HTTP ${r.status()}: ${r.url()}`));
  page.wasmRequests = [];
  context.on('request', (r) => r.url().endsWith('.wasm') && page.wasmRequests.push(r));
  await page.goto(url);
  return page;
}

/** The five-labs page with all its previews drawn; the iframe snippet's frame comes along. */
async function openDocs(options) {
  log = [];
  const page = await open(`${host.url}examples/five-labs.html`, options);
  await page.waitForFunction(
    (ids) => ids.every((id) => document.getElementById(id)?.hasAttribute('data-previewed')),
    EMBEDS,
  );
  const snippet = await (await page.$('#lab-privileged')).contentFrame();
  await snippet.waitForSelector('podlab-embed[data-previewed]');
  await page.waitForLoadState('networkidle');
  return { page, snippet };
}

/** `[shown, total]` from a lab's "Step N of M", once it shows one. */
async function position(frame) {
  await frame.waitForFunction(() => /Step \d+ of \d+/.test(document.querySelector('#position')?.textContent ?? ''), null, {
    timeout: 30_000,
  });
  const m = /Step (\d+) of (\d+)/.exec(await frame.textContent('#position'));
  return [Number(m[1]), Number(m[2])];
}

/** The lab's iframe of an element, once the element made one. */
async function labFrame(page, id) {
  const handle = await page.waitForSelector(`#${id} > iframe`);
  return handle.contentFrame();
}

const preview = (kind, id) => JSON.parse(readFileSync(join(DIST, 'preview', kind, `${id}.json`), 'utf8'));
const servedWasm = () => log.filter((r) => r.path.endsWith('.wasm'));

/** axe-core (the WCAG A/AA rules, as support.mjs) on one frame, not descending into iframes. */
async function axe(frame) {
  const require = createRequire(import.meta.url);
  if (!(await frame.evaluate(() => Boolean(window.axe)))) {
    await frame.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  }
  const result = await frame.evaluate(() =>
    window.axe.run(
      { include: [document], exclude: [['iframe']] },
      {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
        resultTypes: ['violations'],
        iframes: false,
      },
    ),
  );
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the docs page with five embeds shows their manifests, at most 20 KB a preview, and loads no lab', async () => {
  const { page, snippet } = await openDocs();

  // No lab: no .wasm, not even the lab's page or its JavaScript.
  assert.deepEqual(page.wasmRequests.map((r) => r.url()), []);
  const paths = log.map((r) => r.path);
  assert.ok(!paths.some((p) => p === '/' || p === '/index.html' || /podlab-web.*\.js$/.test(p)), paths.join(' '));

  // Each preview shows the manifest its lab starts from.
  const mine = await page.getAttribute('#lab-mine', 'manifest');
  const expected = {
    'lab-pod': preview('starter', 'pod').manifest,
    'lab-pending': preview('exercise', 'pending-pod').manifest,
    'lab-rbac': preview('starter', 'forbidden').manifest,
    'lab-mine': mine,
  };
  for (const [id, text] of Object.entries(expected)) {
    assert.equal(await page.locator(`#${id} pre`).textContent(), text.replace(/\n$/, ''), id);
    await page.locator(`#${id}`).getByRole('button', { name: /^Run in podlab: / }).waitFor();
  }
  assert.match(expected['lab-pending'], /cpu: "16"/);
  assert.equal(await snippet.locator('pre').textContent(), preview('starter', 'privileged').manifest.replace(/\n$/, ''));
  assert.match(await snippet.locator('.title').textContent(), /privileged Pod/);
  // Coloured like the editor: keys, strings, comments.
  assert.ok((await page.locator('#lab-rbac .t-key').count()) > 5);
  assert.equal(await page.locator('#lab-rbac .t-com').first().textContent(), '# Run this with the cluster preset "rbac-alice": kubectl acts as alice, who may only');
  // theme="dark" is the lab's dark panel; the others follow the (light) system.
  const bg = (id) => page.$eval(`#${id}`, (e) => getComputedStyle(e.shadowRoot.querySelector('.card')).backgroundColor);
  assert.equal(await bg('lab-rbac'), 'rgb(24, 32, 42)');
  assert.equal(await bg('lab-pod'), 'rgb(255, 255, 255)');

  // The size of a preview: the files it needs, as sent (brotli) and as files (uncompressed).
  const sent = (path) => log.find((r) => r.path === path && r.status === 200)?.bytes ?? 0;
  const raw = (path) => statSync(join(DIST, path)).size;
  const needs = {
    'lab-pod': ['/embed.js', '/preview/starter/pod.json'],
    'lab-pending': ['/embed.js', '/preview/exercise/pending-pod.json'],
    'lab-rbac': ['/embed.js', '/preview/starter/forbidden.json'],
    'lab-privileged (iframe)': ['/embed.html', '/embed.js', '/preview/starter/privileged.json'],
    'lab-mine': ['/embed.js'],
  };
  const sizes = {};
  for (const [id, files] of Object.entries(needs)) {
    for (const f of files) assert.ok(paths.includes(f), `${f} not requested`);
    sizes[id] = {
      brotli: files.reduce((n, f) => n + sent(f), 0),
      uncompressed: files.reduce((n, f) => n + raw(f), 0),
    };
    assert.ok(sizes[id].brotli <= BUDGET && sizes[id].uncompressed <= BUDGET, `${id}: ${JSON.stringify(sizes[id])}`);
  }
  const podlab = log.filter((r) => !r.path.startsWith('/examples/') && r.path !== '/favicon.svg');
  const total = podlab.reduce((n, r) => n + r.bytes, 0);
  console.log(`preview bytes (per embed): ${JSON.stringify(sizes)}`);
  console.log(`the page's podlab requests before any click: ${podlab.map((r) => `${r.path} ${r.status} ${r.bytes}`).join(', ')}; ${total} bytes`);
  assert.ok(total <= BUDGET, `${total} bytes`);

  await screenshot(page, 'embed-preview-docs-page', { fullPage: true });
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(await snippet.evaluate(() => window.__cspViolations), []);
  await page.context().close();
});

test('a key press, a scroll, a click and send() load four labs; the .wasm crosses the network once', async () => {
  const { page, snippet } = await openDocs();
  const previewOf = { privileged: await snippet.locator('pre').textContent(), mine: await page.locator('#lab-mine pre').textContent() };

  // Keyboard: Tab reaches the first preview's code, then its button; Enter runs the lab.
  await page.locator('h1').click();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.deepEqual(
    await page.evaluate(() => {
      const button = document.activeElement.shadowRoot?.activeElement;
      return [document.activeElement.id, button?.tagName, button?.getAttribute('aria-label')];
    }),
    ['lab-pod', 'BUTTON', 'Run in podlab: how a Pod is scheduled'],
  );
  await page.keyboard.press('Enter');
  const pod = await labFrame(page, 'lab-pod');
  const [shown, total] = await position(pod);
  assert.ok(total > 20 && shown > 1, `${shown} of ${total}`);
  // The lab took the preview's place and has the focus.
  assert.equal(await page.locator('#lab-pod .card').count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'IFRAME');
  await page.evaluate(() => window.scrollTo(0, document.querySelector('h2').offsetTop - 16));
  await screenshot(page, 'embed-preview-activated');

  // load="visible": scrolling the last preview into view loads its lab.
  assert.equal(await page.locator('#lab-mine > iframe').count(), 0);
  await page.locator('#lab-mine').scrollIntoViewIfNeeded();
  const mine = await labFrame(page, 'lab-mine');
  await position(mine);
  assert.equal(await mine.inputValue('#manifest'), previewOf.mine + '\n');

  // Two labs, one download: the second lab took the .wasm from the cache.
  await page.waitForLoadState('networkidle');
  const afterTwo = servedWasm();
  assert.equal(afterTwo.filter((r) => r.status === 200).length, 1, JSON.stringify(afterTwo));
  assert.ok(page.wasmRequests.length >= 2, 'both labs asked for the .wasm');
  assert.equal(new Set(page.wasmRequests.map((r) => r.url())).size, 1, 'one URL');

  // A click in the plain iframe's preview: the frame becomes the lab, at the same options.
  await snippet.getByRole('button', { name: /Run in podlab/ }).click();
  await snippet.waitForURL(/\/\?embed&starter=privileged&panels=editor,outcome,timeline$/);
  await position(snippet);
  assert.equal(await snippet.inputValue('#manifest'), previewOf.privileged + '\n');
  assert.match((await snippet.textContent('#failure')) ?? '', /privileged/);
  await page.waitForLoadState('networkidle');
  const wasm = servedWasm();
  assert.equal(wasm.filter((r) => r.status === 200).length, 1, JSON.stringify(wasm));

  // The exercise's preview is the exercise's manifest: the lab, asked by send(), loads it.
  const pendingPreview = await page.locator('#lab-pending pre').textContent();
  await page.evaluate(() => document.getElementById('lab-pending').send({ type: 'goto', step: 2 }));
  const pending = await labFrame(page, 'lab-pending');
  await pending.waitForFunction(() => document.querySelector('#position')?.textContent.includes('Step 3 of'), null, {
    timeout: 30_000,
  });
  assert.equal(await pending.inputValue('#manifest'), pendingPreview + '\n');
  await page.waitForLoadState('networkidle');
  const all = servedWasm();
  assert.equal(all.filter((r) => r.status === 200).length, 1, JSON.stringify(all));
  console.log(
    `four labs: the browser asked for the .wasm ${page.wasmRequests.length} times ` +
      `(${page.wasmRequests.filter((r) => r.serviceWorker?.()).length} by the service worker); ` +
      `the host answered ${all.map((r) => `${r.status} (${r.bytes} bytes)`).join(', ')}`,
  );

  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('embed.html reads a permalink and the query like the lab, under its CSP', async () => {
  const manifest = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: shared # from a link\nspec:\n  containers:\n  - name: app\n    image: nginx:1.29\n';
  const payload = deflateRawSync(Buffer.from(JSON.stringify({ m: manifest, f: 'shared.yaml' }))).toString('base64url');
  const page = await open(`${env.url}embed.html?panels=editor,timeline&theme=dark#v1:${payload}`, { colorScheme: 'light' });
  await page.waitForSelector('podlab-embed[data-previewed]');
  assert.equal(await page.locator('pre').textContent(), manifest.replace(/\n$/, ''));
  assert.equal(await page.locator('.file').textContent(), 'shared.yaml');
  assert.equal(await page.$eval('podlab-embed', (e) => getComputedStyle(e.shadowRoot.querySelector('.card')).backgroundColor), 'rgb(24, 32, 42)');
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(csp, /script-src 'self'; style-src 'self'/);
  await page.getByRole('button', { name: /Run in podlab/ }).click();
  await page.waitForURL((u) => u.search === '?embed&panels=editor,timeline&theme=dark' && u.hash === `#v1:${payload}`);
  await position(page);
  assert.equal(await page.inputValue('#manifest'), manifest);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);

  // A docs page with a strict policy of its own shows the preview: its styles are a
  // constructed stylesheet, which style-src does not restrict.
  // (A fresh context: in this one the lab has installed its service worker, which would fetch
  // the page itself instead of letting the route answer.)
  const strictUrl = `${env.url}examples/strict-csp.html`;
  const strictContext = await env.browser.newContext();
  await strictContext.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective));
  });
  const strict = await strictContext.newPage();
  await strict.route(strictUrl, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body:
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" ` +
        `content="default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'"><title>strict</title>` +
        `<script type="module" src="../embed.js"></script></head><body><podlab-embed starter="pod"></podlab-embed></body></html>`,
    }),
  );
  await strict.goto(strictUrl);
  await strict.waitForSelector('podlab-embed[data-previewed]');
  assert.equal(await strict.$eval('podlab-embed', (e) => getComputedStyle(e.shadowRoot.querySelector('.t-key')).color), 'rgb(28, 79, 184)');
  assert.deepEqual(await strict.evaluate(() => window.__cspViolations), []);
  await strictContext.close();

  // The service worker precaches the preview files (a preview works offline too).
  const sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
  for (const f of ['./embed.html', './embed.js', './preview/starter/pod.json', './preview/exercise/pending-pod.json']) {
    assert.ok(sw.includes(`"${f}"`), f);
  }
  await page.context().close();
});

test('axe finds no violation on the docs page with previews, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, snippet } = await openDocs({ colorScheme, bypassCSP: true });
    await page.waitForTimeout(300);
    assert.deepEqual(await axe(page.mainFrame()), [], `${colorScheme}: the page`);
    assert.deepEqual(await axe(snippet), [], `${colorScheme}: the iframe's preview page`);
    if (colorScheme === 'dark') await screenshot(page, 'embed-preview-docs-page-dark', { fullPage: true });
    await page.context().close();
  }
});
