// End-to-end tests of sharing and embedding (release build, dist/): a permalink reproduces the
// view, a corrupted link shows the notice, the example docs page embeds two labs that size
// themselves and report events to the page, the build loads from a sub-path, the CSP the build
// writes lets the lab run, and after one visit the lab loads with the server stopped.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { serveDir } from '../../scripts/static-server.mjs';
import { openApp, pickStarter, runs, screenshot, start, waitForRun } from './support.mjs';

const DIST = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'dist');

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

/** `[shown, total]` from the timeline's "Step N of M". */
async function position(page) {
  const text = (await page.textContent('#position')) ?? '';
  const m = /Step (\d+) of (\d+)/.exec(text);
  assert.ok(m, `no position in "${text}"`);
  return [Number(m[1]), Number(m[2])];
}

/** Opens a fresh context (own storage) at `url` and records problems like openApp does. */
async function openUrl(browser, url, { wait = true } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // CSP violations are reported as events: record them.
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
  await page.goto(url);
  if (wait) await waitForRun(page, 0);
  return page;
}

test('a permalink reproduces the manifest, cluster and step, and keeps the saved lab until an edit', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'forbidden');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  const [shown, total] = await position(page);
  assert.equal(shown, 6);
  const manifest = await page.inputValue('#manifest');

  await page.click('#copy-link');
  await page.waitForSelector('#share-url');
  await page.waitForFunction(() => document.querySelector('#share-status')?.textContent !== '');
  const link = await page.inputValue('#share-url');
  assert.match(link, /#v1:[A-Za-z0-9_-]+$/);
  await screenshot(page, 'share-copy-link');

  // Another browser profile, whose saved lab is something else, opens the link.
  const hash = link.slice(link.indexOf('#'));
  const other = await openApp(env, { storage: { 'podlab.manifest': 'kind: Mine\n' }, hash });
  await other.waitForFunction((n) => document.querySelector('#position')?.textContent.includes(`Step ${n} of`), shown);
  assert.deepEqual(await position(other), [shown, total]);
  assert.equal(await other.inputValue('#manifest'), manifest);
  assert.equal(await other.inputValue('#preset'), 'rbac-alice');
  assert.match((await other.textContent('#link-banner')) ?? '', /shared lab/);
  assert.equal(await other.evaluate(() => localStorage.getItem('podlab.manifest')), 'kind: Mine\n');

  // The first edit makes it the learner's lab: saved, banner gone, fragment removed.
  const before = await runs(other);
  await other.fill('#manifest', `${manifest}# mine now\n`);
  await waitForRun(other, before);
  assert.equal(await other.locator('#link-banner').count(), 0);
  assert.equal(await other.evaluate(() => localStorage.getItem('podlab.manifest')), `${manifest}# mine now\n`);
  assert.equal(await other.evaluate(() => location.hash), '');
  assert.deepEqual(other.problems, []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await other.context().close();
});

test('"Back to my lab" leaves a shared link for the saved lab', async () => {
  const page = await openApp(env);
  await page.click('#copy-link');
  const link = await page.inputValue('#share-url');
  const fresh = await openApp(env, {
    storage: { 'podlab.manifest': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: mine\n' },
    hash: link.slice(link.indexOf('#')),
  });
  assert.match(await fresh.inputValue('#manifest'), /name: web/);
  assert.ok(await fresh.isVisible('#link-banner'));
  const n = await runs(fresh);
  await fresh.getByRole('button', { name: 'Back to my lab' }).click();
  await waitForRun(fresh, n);
  assert.match(await fresh.inputValue('#manifest'), /name: mine/);
  assert.equal(await fresh.locator('#link-banner').count(), 0);
  assert.equal(await fresh.evaluate(() => location.hash), '');
  await page.context().close();
  await fresh.context().close();
});

test('when the browser refuses the clipboard, the link is shown selected to copy by hand', async () => {
  const context = await env.browser.newContext();
  await context.addInitScript(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
  });
  const page = await context.newPage();
  await page.goto(env.url);
  await waitForRun(page, 0);
  await page.click('#copy-link');
  await page.waitForFunction(() => /did not allow/.test(document.querySelector('#share-status')?.textContent ?? ''));
  const selected = await page.evaluate(() => {
    const i = document.querySelector('#share-url');
    return document.activeElement === i && i.selectionStart === 0 && i.selectionEnd === i.value.length;
  });
  assert.ok(selected, 'the link field is focused with the whole link selected');
  await context.close();
});

test('a corrupted or foreign link shows a notice and the default lab', async () => {
  const page = await openApp(env, { hash: '#v1:eJzLSM3JyVcozy_KSQEAGgQEXQ-broken', wait: false });
  await waitForRun(page, 0);
  const notice = (await page.textContent('#link-notice')) ?? '';
  assert.match(notice, /This link cannot be opened: .*(damaged|characters)/);
  assert.match(await page.inputValue('#manifest'), /kind: Pod/);
  await screenshot(page, 'share-broken-link-notice');
  await page.getByRole('button', { name: 'Dismiss' }).click();
  assert.equal(await page.locator('#link-notice').count(), 0);

  const foreign = await openApp(env, { hash: '#v7:abc', wait: false });
  await waitForRun(foreign, 0);
  assert.match((await foreign.textContent('#link-notice')) ?? '', /another version of podlab/);
  // An in-page anchor is not a link.
  const anchor = await openApp(env, { hash: '#timeline-title' });
  assert.equal(await anchor.locator('#link-notice').count(), 0);
  for (const p of [page, foreign, anchor]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('the example docs page embeds two labs that size themselves and report to the page', async () => {
  const page = await openUrl(env.browser, `${env.url}examples/docs-page.html`, { wait: false });
  await page.waitForFunction(() => document.querySelectorAll('#events li[data-type="ready"]').length === 2, null, {
    timeout: 30_000,
  });
  const frames = {};
  for (const id of ['lab-pod', 'lab-rbac']) {
    const handle = await page.$(`#${id} iframe`);
    frames[id] = await handle.contentFrame();
    // The iframe is as tall as the lab inside it (no inner scroll bar, no gap).
    await page.waitForFunction(
      (id) => {
        const f = document.querySelector(`#${id} iframe`);
        const inner = f.contentDocument.body.getBoundingClientRect().height;
        return Math.abs(f.getBoundingClientRect().height - Math.ceil(inner)) <= 1 && inner > 200;
      },
      id,
      { timeout: 10_000 },
    );
  }
  // Compact: no page header; only the panels asked for. The first lab is an exercise: its
  // manifest and goals are loaded, and the pod stays Pending.
  const pod = frames['lab-pod'];
  assert.equal(await pod.locator('header.topbar').count(), 0);
  assert.equal(await pod.locator('#panes').count(), 0);
  assert.match(await pod.inputValue('#manifest'), /name: big-batch/);
  assert.match(await pod.textContent('#exercise'), /Schedule the Pending pod/);
  assert.equal(await pod.locator('#phases > li[data-phase="scheduling"] button.step[aria-current]').count(), 1);
  const rbac = frames['lab-rbac'];
  assert.equal(await rbac.getAttribute('#manifest', 'readonly'), '');
  assert.equal(await rbac.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.match((await rbac.textContent('#failure')) ?? '', /alice/);

  // The second lab's quiz, answered in its frame, is reported to the host page.
  const question = rbac.locator('fieldset[data-question="authz-alice-allowed"]');
  await question.getByLabel('No: nothing grants alice the create verb on pods').check();
  await question.getByRole('button', { name: 'Check answer' }).click();
  await question.locator('.verdict.right').waitFor();
  await page.waitForSelector('#events li[data-type="quiz-answered"]');
  assert.match(
    await page.textContent('#events li[data-type="quiz-answered"]'),
    /lab-rbac: quiz-answered .*"quiz":"authz-alice-allowed".*"correct":true/,
  );

  // The host drives a lab (its origin is allowlisted by embed.js) and hears the step.
  const stepSeen = page.evaluate(
    () =>
      new Promise((ok) =>
        document.getElementById('lab-pod').addEventListener('podlab-step', (e) => ok(e.detail), { once: true }),
      ),
  );
  await page.evaluate(() => document.getElementById('lab-pod').send({ type: 'goto', step: 2 }));
  assert.deepEqual(
    { step: (await stepSeen).step, phase: (await stepSeen).phase },
    { step: 2, phase: 'authorization' },
  );
  await pod.waitForFunction(() => document.querySelector('#position')?.textContent.includes('Step 3 of'));

  // The exercise, solved in the frame: the host hears it completed.
  const ran = await runs(pod);
  await pod.fill('#manifest', (await pod.inputValue('#manifest')).replace('cpu: "16"', 'cpu: "2"'));
  await waitForRun(pod, ran);
  await pod.click('#exercise-check');
  await pod.locator('#goal-results .verdict.right').waitFor({ timeout: 30_000 });
  await page.waitForSelector('#events li[data-type="exercise-completed"]');
  assert.match(await page.textContent('#events li[data-type="exercise-completed"]'), /lab-pod: .*pending-pod/);

  // Collapsing the labs' content shrinks the frame too.
  const tall = await page.evaluate(() => document.querySelector('#lab-rbac iframe').getBoundingClientRect().height);
  await page.evaluate(() => document.getElementById('lab-rbac').setAttribute('panels', 'outcome'));
  await page.waitForFunction(
    (tall) => document.querySelector('#lab-rbac iframe').getBoundingClientRect().height < tall - 100,
    tall,
    { timeout: 20_000 },
  );
  await page.waitForTimeout(300);
  await screenshot(page, 'share-docs-page', { fullPage: true });
  assert.deepEqual(page.problems, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  await page.context().close();
});

test('the build loads from a sub-path, with its CSP and no violation', async () => {
  const { server, url } = await serveDir(DIST, { base: '/sub/path/' });
  try {
    assert.match(url, /\/sub\/path\/$/);
    const page = await openUrl(env.browser, url);
    assert.ok((await page.locator('#phases > li').count()) === 15);
    const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
    assert.doesNotMatch(csp, /'unsafe-eval'|'unsafe-inline'/);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
    const embed = await openUrl(env.browser, `${url}?embed&starter=service&panels=outcome,kubectl`, { wait: false });
    await waitForRun(embed, 0, { timeline: false });
    assert.equal(await embed.locator('#panes, [role=tablist]').count() > 0, true);
    assert.deepEqual([...page.problems, ...embed.problems], []);
    await page.context().close();
    await embed.context().close();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});

test('after one visit the lab loads with the server stopped (service worker)', async () => {
  const { server, url } = await serveDir(DIST, { base: '/offline/' });
  const page = await openUrl(env.browser, url);
  // Installed and controlling: every file of the build is cached.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), null, { timeout: 20_000 });
  const cached = await page.evaluate(async () => {
    const keys = await caches.keys();
    const cache = await caches.open(keys.find((k) => k.startsWith('podlab-')));
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });
  assert.ok(cached.some((p) => p.endsWith('.wasm')), cached.join(' '));
  assert.ok(cached.includes('/offline/examples/docs-page.html'), cached.join(' '));
  await new Promise((ok) => server.close(ok));
  server.closeAllConnections?.();

  const offline = await page.context().newPage();
  offline.problems = [];
  offline.on('pageerror', (e) => offline.problems.push(`page error: ${e.message}`));
  await offline.goto(`${url}?embed&starter=pending`);
  await waitForRun(offline, 0);
  await offline.reload();
  await waitForRun(offline, 0);
  assert.match((await offline.textContent('#run-summary')) ?? '', /steps/);
  assert.deepEqual(offline.problems, []);
  await page.context().close();
});
