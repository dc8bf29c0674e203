// End-to-end tests of the learning side: a quiz answered right and wrong (with the
// explanation shown), the predict-then-reveal pause, an exercise completed, and the progress
// kept across a reload, a session exercise solved in the terminal. Screenshots: learn-quiz,
// learn-predict, learn-exercise, learn-session-exercise.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { axeViolations, openApp, runs, screenshot, start, waitForRun } from './support.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

test('a quiz: one right answer, one wrong answer with its explanation', async () => {
  const page = await openApp(env);
  await page.click('#tab-c-learn');
  await page.click('#learn-quiz-tab');
  await page.selectOption('#quiz-group', 'request-authentication');
  const right = page.locator('fieldset[data-question="authn-admin-method"]');
  await right.getByLabel('From the TLS client certificate kubectl presents').check();
  await right.getByRole('button', { name: 'Check answer' }).click();
  await assert.doesNotReject(right.locator('.verdict.right').waitFor());
  assert.match(await right.locator('.result').textContent(), /Correct\..*Common Name/s);

  const wrong = page.locator('fieldset[data-question="authn-admin-groups"]');
  await wrong.getByLabel('system:unauthenticated').check();
  await wrong.getByRole('button', { name: 'Check answer' }).click();
  await wrong.locator('.verdict.wrong').waitFor();
  const text = await wrong.locator('.result').textContent();
  assert.match(text, /Not quite\..*system:masters/s, 'the right answer is named');
  assert.match(text, /Only anonymous requests get this group/, 'the chosen wrong answer has its reason');
  assert.equal(await wrong.locator('.result').getAttribute('aria-live'), 'polite');
  await right.scrollIntoViewIfNeeded();
  await screenshot(page, 'learn-quiz');
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.problems, []);
});

test('predict, then reveal: stepping pauses before the scheduler decides', async () => {
  const page = await openApp(env);
  await page.check('#ask-toggle');
  // Step forward until the lab asks.
  for (let i = 0; i < 80 && !(await page.locator('#predict-question').count()); i++) {
    await page.click('#forward');
  }
  const q = page.locator('#predict-question');
  await q.waitFor();
  assert.match(await q.textContent(), /The lab paused before step \d+/);
  await page.locator('#predict-question input').first().check();
  await page.locator('#predict-question .check').click();
  await page.locator('#predict-question .verdict').waitFor();
  await screenshot(page, 'learn-predict');
  assert.deepEqual(await axeViolations(page), []);
  await page.click('#reveal');
  assert.equal(await page.locator('#predict-question').count(), 0, 'revealed');
  assert.deepEqual(page.problems, []);
});

test('an exercise completed, and the progress kept after a reload', async () => {
  const page = await openApp(env);
  await page.click('#tab-c-learn');
  await page.click('#learn-exercises-tab');
  const before = await runs(page);
  await page.locator('li[data-exercise="pending-pod"] button').click();
  await waitForRun(page, before);
  await page.click('#exercise-check');
  await page.locator('#goal-results .verdict.wrong').waitFor();
  assert.match(await page.textContent('#goal-results'), /Not yet: .*Running/s);
  await page.click('#hint');
  assert.match(await page.textContent('.hints'), /FailedScheduling/);
  // Fix it: a request that fits on a worker.
  const fixed = (await page.inputValue('#manifest')).replace('cpu: "16"', 'cpu: "2"');
  const n = await runs(page);
  await page.fill('#manifest', fixed);
  await waitForRun(page, n);
  await page.click('#exercise-check');
  await page.locator('#goal-results .verdict.right').waitFor();
  await screenshot(page, 'learn-exercise');
  assert.match(await page.textContent('li[data-exercise="pending-pod"]'), /done/);
  await page.reload();
  await waitForRun(page, 0);
  await page.click('#tab-c-learn');
  await page.click('#learn-exercises-tab');
  assert.match(await page.textContent('li[data-exercise="pending-pod"]'), /done/, 'kept after reload');
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('podlab.progress')));
  assert.equal(stored.version, 1);
  assert.equal(stored.exercises['pending-pod'].done, true);
  assert.equal(stored.exercises['pending-pod'].hints_used, 1);
  assert.deepEqual(page.problems, []);
});

test('a session exercise: the stopped component found from its symptoms and started in the terminal', { timeout: 180_000 }, async () => {
  const page = await openApp(env, { viewport: { width: 1440, height: 1000 } });
  await page.click('#tab-c-learn');
  await page.click('#learn-exercises-tab');
  const before = await runs(page);
  await page.locator('li[data-exercise="stopped-component"] button').click();
  await waitForRun(page, before);
  assert.match(await page.textContent('#exercise'), /type the commands in the terminal/);
  // The exercise's own commands are in the terminal, without naming the component.
  const lines = await page.$$eval('#session-screen .term-cmd', (c) => c.map((e) => e.textContent.replace(/^\$ /, '').trim()));
  assert.deepEqual(lines, ['kubectl apply -f exercise.yaml', 'lab stop control-plane-component', 'kubectl scale deployment web --replicas=4']);
  await page.click('#exercise-check');
  await page.locator('#goal-results .verdict.wrong').waitFor();
  // The symptoms: the Deployment asks for 4, only 2 Pods exist.
  const type = async (line) => {
    const n = await runs(page);
    await page.fill('#term-line', line);
    await page.press('#term-line', 'Enter');
    await waitForRun(page, n);
  };
  await type('kubectl get deployments');
  assert.match(await page.textContent('#session-screen .term-entry:last-child .term-out'), /web\s+2\/4\s+2\s+2/);
  await type('lab start kube-controller-manager');
  await type('kubectl get pods');
  const pods = await page.textContent('#session-screen .term-entry:last-child .term-out');
  assert.equal([...pods.matchAll(/Running/g)].length, 4, pods);
  await page.click('#exercise-check');
  await page.locator('#goal-results .verdict.right').waitFor();
  await screenshot(page, 'learn-session-exercise');
  assert.match(await page.textContent('li[data-exercise="stopped-component"]'), /done/);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.problems, []);
});

test('corrupt progress resets with a notice', async () => {
  const page = await openApp(env, { storage: { 'podlab.progress': '{not json' } });
  assert.match(await page.textContent('#learn'), /could not be read, so it was reset/);
  assert.deepEqual(page.problems, []);
});
