// End-to-end tests of the page's layout (issue 29, "the journey first"): after the first run
// the outcome, the timeline's position and the step detail are where the eye is, on a phone
// (375×812) and on a desktop (1440×900); the view tabs (Manifest · Journey · Cluster · Learn
// on a phone, Manifest · Cluster and Journey · Learn on a desktop) keep the editor, the
// cluster and the quizzes one click away; the current phase's quiz opens with one click from
// the step and is graded in place; nothing moves when a run ends; and an embed says nothing
// about saving, has cards of one width and gives the scheduler's message once.
// Screenshots: layout-phone, layout-desktop, layout-phone-<view>, layout-quiz-at-phase,
// layout-embed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { axeViolations, openApp, pickStarter, runs, SCREENSHOTS, screenshot, start, waitForRun } from './support.mjs';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1440, height: 900 };

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

async function checkAxe(page, state) {
  assert.deepEqual(await axeViolations(page), [], `axe violations in state "${state}"`);
}

/** The top of an element in document coordinates (CSS pixels from the top of the page). */
function docTop(page, selector) {
  return page.evaluate((s) => document.querySelector(s).getBoundingClientRect().top + window.scrollY, selector);
}

function docHeight(page) {
  return page.evaluate(() => document.documentElement.scrollHeight);
}

/** The views shown (the tab panels displayed), by id. */
function shownViews(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[role=tabpanel].view')].filter((v) => v.offsetParent !== null).map((v) => v.id),
  );
}

/** The sum of the layout shifts the page reported so far (Cumulative Layout Shift). */
function layoutShift(page) {
  return page.evaluate(
    () =>
      new Promise((ok) => {
        let sum = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) if (!e.hadRecentInput) sum += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => ok(sum), 200);
      }),
  );
}

for (const [name, viewport, limit] of [
  ['phone', PHONE, 1218],
  ['desktop', DESKTOP, 900],
]) {
  test(`${name} (${viewport.width}×${viewport.height}): the journey first after the first run`, async () => {
    const page = await openApp(env, { viewport });
    const position = await docTop(page, '#position');
    const height = await docHeight(page);
    const outcome = await docTop(page, '#status-title');
    const detail = await docTop(page, '#detail-title');
    console.log(`${name}: #position at ${Math.round(position)} px, Outcome at ${Math.round(outcome)} px, Step detail at ${Math.round(detail)} px, document ${height} px tall`);
    assert.ok(position <= limit, `#position is at ${position}px, more than ${limit}px down`);
    assert.ok(outcome < position, 'the outcome comes before the timeline');
    if (name === 'desktop') {
      assert.ok(height <= 2700, `the desktop page is ${height}px tall`);
      // Two columns: the manifest on the left, the journey on the right.
      assert.deepEqual(await shownViews(page), ['view-manifest', 'view-journey']);
      assert.ok(detail < viewport.height, `the step detail starts at ${detail}px, below the first screen`);
    } else {
      // One view at a time, the journey first; the tab bar stays at the top of the screen.
      assert.deepEqual(await shownViews(page), ['view-journey']);
      assert.equal(await page.getAttribute('#tab-n-journey', 'aria-selected'), 'true');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the page is ${width}px wide`);
    }
    // The current phase is explained under the step; the other fourteen are collapsed.
    assert.match(await page.textContent('#phase-card-title'), /^This phase: Request/);
    assert.equal(await page.locator('#explain-all').getAttribute('open'), null);
    assert.equal(await page.isVisible('#explain-scheduling'), false);
    // Nothing moved when the run ended (the containers keep their size).
    const cls = await layoutShift(page);
    assert.ok(cls < 0.05, `layout shift ${cls}`);
    await screenshot(page, `layout-${name}-first-screen`);
    await screenshot(page, `layout-${name}`, { fullPage: true });
    await checkAxe(page, `${name}: default view`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('phone: the four view tabs, by touch and by keyboard, in light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await openApp(env, { viewport: PHONE, colorScheme });
    // The editor is one tap away.
    await page.click('#tab-n-manifest');
    assert.deepEqual(await shownViews(page), ['view-manifest']);
    assert.ok(await page.isVisible('#manifest'));
    await checkAxe(page, `${colorScheme}: phone, Manifest view`);
    if (colorScheme === 'light') await screenshot(page, 'layout-phone-manifest', { fullPage: true });
    await pickStarter(page, 'pending');
    // From the manifest to what it did, in one tap.
    await page.click('.to-journey button');
    await page.waitForFunction(() => document.activeElement?.id === 'status-title');
    assert.deepEqual(await shownViews(page), ['view-journey']);
    await page.click('#tab-n-manifest');
    // Arrow keys move along the tabs and show each view.
    await page.focus('#tab-n-manifest');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'tab-n-journey');
    assert.deepEqual(await shownViews(page), ['view-journey']);
    assert.match(await page.textContent('#failure'), /0\/3 nodes are available/);
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await shownViews(page), ['view-cluster']);
    assert.ok(await page.isVisible('#preset'));
    await page.locator('.policy summary').first().click();
    await checkAxe(page, `${colorScheme}: phone, Cluster view`);
    if (colorScheme === 'light') await screenshot(page, 'layout-phone-cluster', { fullPage: true });
    await page.focus('#tab-n-cluster');
    await page.keyboard.press('End');
    assert.deepEqual(await shownViews(page), ['view-learn']);
    assert.ok(await page.isVisible('#quiz-group'));
    await checkAxe(page, `${colorScheme}: phone, Learn view`);
    // Arrow keys in the tab list do not step through the run.
    const position = await page.textContent('#position');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.textContent('#position'), position);
    // The skip link shows the journey and focuses the timeline.
    await page.click('#tab-n-manifest');
    await page.focus('.skip');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'timeline-title');
    assert.deepEqual(await shownViews(page), ['view-journey']);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('desktop: Manifest · Cluster on the left, Journey · Learn on the right, each a click away', async () => {
  const page = await openApp(env, { viewport: DESKTOP });
  await page.click('#tab-c-cluster');
  assert.deepEqual(await shownViews(page), ['view-cluster', 'view-journey']);
  assert.ok(await page.isVisible('.node[data-node="kind-worker"]'));
  await page.click('#tab-c-learn');
  assert.deepEqual(await shownViews(page), ['view-cluster', 'view-learn']);
  await checkAxe(page, 'desktop: Cluster and Learn');
  await page.click('#tab-c-journey');
  await page.click('#tab-c-manifest');
  assert.deepEqual(await shownViews(page), ['view-manifest', 'view-journey']);
  // Every phase on demand: the timeline's "About" opens the list at that phase.
  await page.locator('#phases > li[data-phase="scheduling"] .phase-about').click();
  assert.equal(await page.locator('#explain-all').getAttribute('open'), '');
  assert.ok(await page.isVisible('#explain-scheduling'));
  await page.waitForFunction(() => location.hash === '#explain-scheduling');
  await checkAxe(page, 'desktop: every phase explained');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
]) {
  test(`${name}: the current phase's quiz opens with one click from the step and is graded there`, async () => {
    const page = await openApp(env, { viewport, colorScheme: name === 'phone' ? 'dark' : 'light' });
    await page.locator('#phases .phase-jump', { hasText: 'Scheduling' }).click();
    await page.waitForFunction(() => document.querySelector('.phase-tag')?.textContent === 'Scheduling');
    const open = page.locator('#phase-quiz-open');
    assert.equal(await open.textContent(), 'Check yourself on Scheduling');
    assert.equal(await open.getAttribute('aria-expanded'), 'false');
    await open.click(); // the one click
    await page.waitForFunction(() => document.activeElement?.id === 'phase-quiz-title');
    assert.equal(await open.getAttribute('aria-expanded'), 'true');
    assert.match(await page.textContent('#phase-quiz-title'), /Check yourself: Scheduling/);
    const q = page.locator('#phase-quiz fieldset[data-question="sched-too-big"]');
    await q.getByLabel('It finds no node; the pod stays Pending').check();
    await q.getByRole('button', { name: 'Check answer' }).click();
    await q.locator('.verdict.right').waitFor();
    assert.match(await q.locator('.result').textContent(), /Correct\./);
    const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('podlab.progress')));
    assert.equal(stored.answers['sched-too-big'].correct, true, 'recorded in the progress');
    assert.match(await page.textContent('#phase-card .quiz-score'), /^1 of \d+ answered right$/);
    // A wrong answer is graded too, with the right one named.
    const wrong = page.locator('#phase-quiz fieldset[data-question="sched-taint-filter"]');
    await wrong.locator('input').nth(1).check();
    await wrong.getByRole('button', { name: 'Check answer' }).click();
    await wrong.locator('.verdict.wrong').waitFor();
    assert.match(await wrong.locator('.result').textContent(), /Not quite\. The answer: TaintToleration/);
    await q.scrollIntoViewIfNeeded();
    await screenshot(page, `layout-quiz-at-phase${name === 'phone' ? '-phone' : ''}`);
    await page.locator('#phase-card').screenshot({ path: join(SCREENSHOTS, `layout-quiz-at-phase-card${name === 'phone' ? '-phone' : ''}.png`) });
    await checkAxe(page, `${name}: quiz at the Scheduling phase`);
    // Stepping inside the phase keeps the answers; the Learn view has the whole overview.
    await page.click('#forward');
    if (await page.textContent('.phase-tag') === 'Scheduling') {
      assert.equal(await page.locator('#phase-quiz .verdict.right').count(), 1);
    }
    await page.getByRole('button', { name: 'Learn', exact: true }).click();
    assert.ok(await page.isVisible('#learn-title'));
    assert.equal(await page.inputValue('#quiz-group'), 'scheduling');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

/** Opens an embed URL (`query` after `?`) in a fresh context, recording problems. */
async function openEmbed(query, { timeline = true } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 800, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && page.problems.push(`console error: ${m.text()}`));
  page.on('requestfailed', (r) => page.problems.push(`request failed: ${r.url()}`));
  await page.goto(`${env.url}?${query}`);
  await waitForRun(page, 0, { timeline });
  return page;
}

test('an embed (800 px): no word about saving, cards of one width, the scheduler message once', async () => {
  const page = await openEmbed('embed&starter=pending&panels=editor,outcome,timeline,detail');
  const hint = await page.textContent('#manifest-hint');
  assert.doesNotMatch(hint, /saved in this browser/, hint);
  assert.match(hint, /Tab indents/);
  // Every card as wide as the others, none wider than the page.
  const widths = await page.evaluate(() =>
    [...document.querySelectorAll('main.lab > section.panel')].map((s) => [s.className, Math.round(s.getBoundingClientRect().width)]),
  );
  assert.equal(widths.length, 4, JSON.stringify(widths));
  const detail = widths.find(([c]) => c.includes('detail'))[1];
  for (const [c, w] of widths) assert.equal(w, detail, `${c} is ${w}px wide, the step detail ${detail}px`);
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scroll <= 800, `the embed is ${scroll}px wide`);
  // "Where it broke" gives the scheduler's message once.
  const failure = await page.textContent('#failure');
  const times = failure.split('0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.').length - 1;
  assert.equal(times, 1, failure);
  // The embed's own step: the scheduling cycle, whose detail is the widest.
  await page.click('#failure button');
  await page.waitForFunction(() => document.querySelector('.phase-tag')?.textContent === 'Scheduling');
  const after = await page.evaluate(() =>
    [...document.querySelectorAll('main.lab > section.panel')].map((s) => Math.round(s.getBoundingClientRect().width)),
  );
  assert.equal(new Set(after).size, 1, `card widths ${after}`);
  await screenshot(page, 'layout-embed', { fullPage: true });
  await checkAxe(page, 'embed, scheduling step');
  assert.equal(await page.locator('[role=tablist].view-tabs').count(), 0, 'an embed has no view tabs');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a readonly embed says so under the editor', async () => {
  const page = await openEmbed('embed&starter=forbidden&panels=editor,outcome&readonly', { timeline: false });
  const hint = await page.textContent('#manifest-hint');
  assert.match(hint, /read-only/);
  assert.doesNotMatch(hint, /saved in this browser|Tab indents/);
  // The Forbidden message differs from the step's summary: it stays, once.
  assert.match(await page.textContent('#failure .message'), /User "alice" cannot create resource "pods"/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the full page still says it saves, and a re-run does not move the journey', async () => {
  const page = await openApp(env, { viewport: DESKTOP });
  assert.match(await page.textContent('#manifest-hint'), /saved in this browser/);
  const before = await docTop(page, '#detail-title');
  const n = await runs(page);
  await page.fill('#manifest', `${await page.inputValue('#manifest')}# again\n`);
  await waitForRun(page, n);
  assert.equal(await docTop(page, '#detail-title'), before);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
