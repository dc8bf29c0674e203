// End-to-end tests that the page never freezes (issue 27): a learner pastes a big manifest
// (a rendered Helm chart, scripts/big-manifest.mjs) or types into one, and the page keeps
// answering. These are the page's generous responsiveness ceilings (CONTRIBUTING.md: the
// only timed assertions of the suite):
//
// - a click on the timeline ("Next") is handled within 500 ms while a pasted 200 KB or 5 MB
//   manifest is being taken in and run, and after its run is shown: the time from asking
//   for the click to the DOM change it causes (`#position` shows another step), read in the
//   page on the same clock;
// - a 5 MB paste shows the same error the CLI gives for that file within 3 s, and the
//   learner's text survives a reload;
// - no long task over 200 ms (PerformanceObserver 'longtask') while typing 20 keys into a
//   2,000-line manifest, until the run of the typed text is shown.
//
// Run alone: `trunk build index.html --release && node --test tests/e2e/responsiveness.test.mjs`.
// Every page runs with the CPU 4 times slower (CDP `Emulation.setCPUThrottlingRate`): the
// 75th-percentile phone of the load report (docs/size.md, "Load"), the learner the issue is
// about; on the test machine's full speed the 200 KB paste and the typing stay just under
// the ceilings (138 ms and 167 ms on the 2-core VM) while a phone freezes for seconds.
// PODLAB_CPU_SLOWDOWN=1 runs them at full speed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bigManifest } from '../../scripts/big-manifest.mjs';
import { openApp, runs, screenshot, start } from './support.mjs';

/** How long a click may take to change the page. */
const CLICK_MS = 500;
/** How long a 5 MB paste may take to show its error. */
const BIG_ERROR_MS = 3000;
/** The longest task allowed while typing. */
const LONG_TASK_MS = 200;
/** How long a measurement waits for a frozen page before it records "no answer". */
const PATIENCE_MS = 90_000;
/** CPU slowdown applied to every page (1: none). */
const SLOWDOWN = Number(process.env.PODLAB_CPU_SLOWDOWN ?? 4);

// What `podlab apply -f big.yaml` answers for the 5 MB manifest (crates/cli, 0.6 s): every
// release is created, and the 4 MB ConfigMap of dashboards is refused by the API server:
//   The ConfigMap "grafana-dashboards" is invalid:
//   * metadata.annotations: Too long: may not be more than 262144 bytes
//   * : Too long: may not be more than 1048576 bytes
const BIG_ERROR = /metadata\.annotations: Too long: may not be more than 262144 bytes/;

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

/**
 * Installs the in-page probe: the timestamp of the last click on a timeline control and of
 * the first change of `#position`'s text after it (another step, or a new run's first), and
 * long tasks.
 */
async function installProbe(page) {
  if (SLOWDOWN !== 1) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
  }
  await page.evaluate(() => {
    const probe = { clickAt: null, changedAt: null, text: null, longtasks: [] };
    window.__probe = probe;
    const position = () => document.getElementById('position')?.textContent ?? '';
    probe.text = position();
    document.addEventListener(
      'click',
      (e) => {
        if (e.target instanceof Element && e.target.closest('.timeline')) {
          probe.clickAt = e.timeStamp;
          probe.changedAt = null;
          probe.text = position();
        }
      },
      true,
    );
    new MutationObserver(() => {
      if (probe.clickAt !== null && probe.changedAt === null && position() !== probe.text) {
        probe.changedAt = performance.now();
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

/**
 * Clicks `selector` as a learner does (Playwright scrolls it into view and waits until it
 * can be clicked, which on a busy page waits for the page) and resolves to the ms from the
 * moment the click was asked for to the DOM change it causes (read in the page, on the same
 * clock), or null if the page did not answer within `patience` ms. Measured from outside
 * the page, since the page cannot timestamp a click it has not received yet, and the
 * position of the control moves when the run's outcome is shown.
 */
async function clickLatency(page, selector, patience = PATIENCE_MS) {
  await page.evaluate(() => {
    window.__probe.clickAt = null;
    window.__probe.changedAt = null;
  });
  const asked = Date.now();
  try {
    await page.click(selector, { timeout: patience });
    await page.waitForFunction(() => window.__probe.changedAt !== null, null, {
      timeout: Math.max(1, patience - (Date.now() - asked)),
      polling: 50,
    });
  } catch {
    return null;
  }
  return page.evaluate((t) => performance.timeOrigin + window.__probe.changedAt - t, asked);
}

/** Pastes `text` into the editor as a learner's paste (value set, `input` event), without waiting. */
async function pasteSoon(page, text) {
  return page.evaluate((t) => {
    const at = performance.now();
    setTimeout(() => {
      const ta = document.querySelector('#manifest');
      ta.focus();
      ta.value = t;
      ta.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
    }, 0);
    return at;
  }, text);
}

/** Waits until the page has finished more than `after` runs; false after `timeout` ms. */
async function finishedRun(page, after, timeout) {
  try {
    await page.waitForFunction((n) => Number(document.querySelector('main.lab')?.dataset.runs ?? 0) > n, after, {
      timeout,
      polling: 200,
    });
    return true;
  } catch {
    return false;
  }
}

const show = (ms) => (ms === null ? `no answer within ${PATIENCE_MS / 1000} s` : `${Math.round(ms)} ms`);

test('pasting a 200 KB manifest: a click on the timeline is handled within 500 ms during and after its run', { timeout: 400_000 }, async (t) => {
  const page = await openApp(env);
  await installProbe(page);
  const text = bigManifest({ bytes: 200 * 1024 });
  const before = await runs(page);
  const pastedAt = await pasteSoon(page, text);
  // After the run's debounce (350 ms): the page is taking the text in or running it.
  await page.waitForTimeout(600);
  const during = await clickLatency(page, '#forward');
  const finished = await finishedRun(page, before, 240_000);
  const shownAfter = await page.evaluate((at) => performance.now() - at, pastedAt);
  let afterRun = null;
  if (finished) {
    await page.waitForTimeout(300);
    afterRun = await clickLatency(page, '#forward');
  }
  t.diagnostic(
    `200 KB paste (${text.split('\n').length - 1} lines): click during ${show(during)}, run shown ${finished ? `${(shownAfter / 1000).toFixed(1)} s after the paste` : 'never (240 s)'}, click after ${show(afterRun)}`,
  );
  await screenshot(page, 'responsiveness-200k');
  assert.ok(during !== null && during <= CLICK_MS, `a click during the run is handled in ${show(during)} (at most ${CLICK_MS} ms)`);
  assert.ok(finished, 'the run of the pasted manifest is shown');
  assert.ok(afterRun !== null && afterRun <= CLICK_MS, `a click after the run is handled in ${show(afterRun)} (at most ${CLICK_MS} ms)`);
  assert.deepEqual(page.problems, []);
});

test("pasting a 5 MB manifest: the CLI's error within 3 s, the page answers, the text survives a reload", { timeout: 400_000 }, async (t) => {
  const page = await openApp(env);
  await installProbe(page);
  const text = bigManifest({ bytes: 5 * 1024 * 1024, dashboards: 4 * 1024 * 1024 });
  const pastedAt = await pasteSoon(page, text);
  await page.waitForTimeout(600);
  const during = await clickLatency(page, '#forward');
  // The error, where the page shows a run's outcome or the editor's problems.
  let errorAfter = null;
  try {
    await page.waitForFunction(
      (src) => {
        const re = new RegExp(src);
        return [...document.querySelectorAll('section.status, #markers')].some((e) => re.test(e.textContent ?? ''));
      },
      BIG_ERROR.source,
      { timeout: PATIENCE_MS, polling: 100 },
    );
    errorAfter = await page.evaluate((at) => performance.now() - at, pastedAt);
  } catch {
    // errorAfter stays null: no error shown.
  }
  await screenshot(page, 'responsiveness-5m');
  // The learner's text is kept: after a reload the editor holds it unchanged.
  let kept = null;
  try {
    await page.reload({ timeout: PATIENCE_MS });
    await page.waitForSelector('#manifest', { timeout: PATIENCE_MS });
    kept = await page.inputValue('#manifest', { timeout: PATIENCE_MS });
  } catch (e) {
    kept = `(reload failed: ${e.message.split('\n')[0]})`;
  }
  t.diagnostic(
    `5 MB paste (${(text.length / 1048576).toFixed(2)} MB, ${text.split('\n').length - 1} lines): click during ${show(during)}, CLI error shown ${errorAfter === null ? `never (${PATIENCE_MS / 1000} s)` : `after ${Math.round(errorAfter)} ms`}, text after reload: ${kept === text ? 'kept' : `${kept?.length ?? 0} characters, not the paste`}`,
  );
  assert.ok(during !== null && during <= CLICK_MS, `a click after the paste is handled in ${show(during)} (at most ${CLICK_MS} ms)`);
  assert.ok(errorAfter !== null && errorAfter <= BIG_ERROR_MS, `the CLI's error is shown ${errorAfter === null ? 'never' : `after ${Math.round(errorAfter)} ms`} (at most ${BIG_ERROR_MS} ms)`);
  assert.ok(kept === text, `the pasted text is in the editor after a reload (${kept?.length ?? 0} of ${text.length} characters)`);
  assert.deepEqual(page.problems, []);
});

test('typing 20 keys into a 2,000-line manifest: no long task over 200 ms', { timeout: 400_000 }, async (t) => {
  const text = bigManifest({ lines: 2000 });
  // The learner's saved manifest: the page opens with it and runs it.
  const page = await openApp(env, { storage: { 'podlab.manifest': text }, wait: false });
  assert.ok(await finishedRun(page, 0, 240_000), 'the 2,000-line manifest is run when the page opens');
  await installProbe(page);
  // The cursor at the end of a line in the middle of the text.
  await page.evaluate(() => {
    const ta = document.querySelector('#manifest');
    const lines = ta.value.split('\n');
    const at = lines.slice(0, 1000).join('\n').length;
    ta.focus();
    ta.setSelectionRange(at, at);
  });
  const before = await runs(page);
  const t0 = await page.evaluate(() => performance.now());
  // A comment typed at a learner's pace.
  await page.keyboard.type(' # tuned for prod ok', { delay: 80 });
  const typed = await page.evaluate(() => performance.now());
  const finished = await finishedRun(page, before, 240_000);
  await page.waitForTimeout(500);
  const tasks = await page.evaluate((from) => window.__probe.longtasks.filter((l) => l.start >= from), t0);
  const longest = Math.max(0, ...tasks.map((l) => l.duration));
  t.diagnostic(
    `typing 20 keys into 2,000 lines took ${Math.round(typed - t0)} ms (20 × 80 ms of delay); long tasks until the run was shown: ${tasks.map((l) => Math.round(l.duration)).join(', ') || 'none'}; run ${finished ? 'shown' : 'not shown within 240 s'}`,
  );
  assert.equal(await page.locator('#manifest').inputValue().then((v) => v.length), text.length + 20, 'every key reached the editor');
  assert.ok(finished, 'the run of the typed text is shown');
  assert.ok(longest <= LONG_TASK_MS, `the longest task took ${Math.round(longest)} ms (at most ${LONG_TASK_MS} ms)`);
  assert.deepEqual(page.problems, []);
});
