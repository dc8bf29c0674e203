// End-to-end tests of the release build (dist/) in Debian's Chromium.
// Run alone: `trunk build index.html --release && node --test tests/e2e/` (see CONTRIBUTING.md).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { axeViolations, openApp, screenshot, start, texts, waitForApp } from './support.mjs';

const TWO_DOCUMENTS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
spec:
  replicas: 2
---
apiVersion: v1
kind: Service
metadata:
  name: api
  namespace: shop
`;

// The second document is broken on line 9: a mapping value where a scalar is expected.
const BROKEN = `apiVersion: v1
kind: Namespace
metadata:
  name: dev
---
kind: Pod
metadata:
  name: web
  labels: app: web
`;

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

test('the page loads and shows the starter manifest as one Pod', async () => {
  const page = await openApp(env);
  assert.equal(await page.title(), 'podlab · Kubernetes learning lab');
  assert.equal((await texts(page, '.brand'))[0], 'podlab');
  assert.equal((await texts(page, '.version'))[0], 'Kubernetes v1.37');
  assert.match(await page.inputValue('#manifest'), /^apiVersion: v1\nkind: Pod\n/);
  assert.deepEqual(await texts(page, '#documents .kind'), ['Pod']);
  assert.deepEqual(await texts(page, '#documents .name'), ['web']);
  assert.equal((await texts(page, '#doc-count'))[0], '1 document');
  assert.equal(await page.locator('#yaml-error').count(), 0);
  assert.equal(await page.locator('.boot').isVisible(), false, 'the loading text is hidden');
  await screenshot(page, '01-starter');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a two-document manifest lists both kinds', async () => {
  const page = await openApp(env);
  await page.fill('#manifest', TWO_DOCUMENTS);
  await page.waitForFunction(() => document.querySelectorAll('#documents .kind').length === 2);
  assert.deepEqual(await texts(page, '#documents .kind'), ['Deployment', 'Service']);
  assert.deepEqual(await texts(page, '#documents .name'), ['api', 'api']);
  const meta = await texts(page, '#documents .meta');
  assert.equal(meta[0], 'apps/v1 · line 1 · namespace shop');
  assert.equal(meta[1], 'v1 · line 9 · namespace shop');
  assert.equal((await texts(page, '#doc-count'))[0], '2 documents');
  await screenshot(page, '02-two-documents');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('broken YAML shows the engine error with line and column', async () => {
  const page = await openApp(env);
  await page.fill('#manifest', BROKEN);
  await page.waitForSelector('#yaml-error');
  assert.equal(
    (await texts(page, '#yaml-error .message'))[0],
    'line 9, column 14: mapping values are not allowed in this context',
  );
  assert.equal(await page.getAttribute('#yaml-error', 'role'), 'alert');
  // The document read before the error is still listed.
  assert.deepEqual(await texts(page, '#documents .kind'), ['Namespace']);
  await screenshot(page, '03-yaml-error');
  // Fixing the text clears the error.
  await page.fill('#manifest', BROKEN.replace('labels: app: web', 'labels: {app: web}'));
  await page.waitForSelector('#yaml-error', { state: 'detached' });
  assert.deepEqual(await texts(page, '#documents .kind'), ['Namespace', 'Pod']);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the text survives a reload, and "Restore example" brings the starter back', async () => {
  const page = await openApp(env);
  await page.fill('#manifest', TWO_DOCUMENTS);
  await page.waitForFunction(() => document.querySelectorAll('#documents .kind').length === 2);
  await page.reload();
  await waitForApp(page);
  assert.equal(await page.inputValue('#manifest'), TWO_DOCUMENTS);
  assert.deepEqual(await texts(page, '#documents .kind'), ['Deployment', 'Service']);
  await screenshot(page, '04-after-reload');

  await page.getByRole('button', { name: 'Restore example' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#documents .kind').length === 1);
  assert.deepEqual(await texts(page, '#documents .kind'), ['Pod']);
  await page.reload();
  await waitForApp(page);
  assert.deepEqual(await texts(page, '#documents .kind'), ['Pod']);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`axe finds no accessibility violation (${colorScheme} scheme, error shown)`, async () => {
    const page = await openApp(env, { colorScheme });
    await page.fill('#manifest', BROKEN);
    await page.waitForSelector('#yaml-error');
    await screenshot(page, `05-${colorScheme}`);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}
