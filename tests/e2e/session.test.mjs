// End-to-end tests of the live session (issue 25) as a learner uses it: the Deployment
// starter runs, the learner deletes one of its Pods in the terminal under the editor and
// sees the ReplicaSet's replacement in `kubectl get pods`; the command's steps are a group of
// the timeline after the fifteen phases, the first command's steps are still there to step
// back into; ↑ brings the last command back, Tab completes a Pod's name; the session
// survives a reload and travels in a permalink; "Reset cluster" forgets it; axe finds
// nothing with the terminal in use. Screenshots: session-terminal, session-permalink.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { axeViolations, openApp, pickStarter, runs, screenshot, start, texts, waitForRun } from './support.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

/** Types `line` in the terminal, presses Enter, and waits for the session's run. */
async function command(page, line) {
  const before = await runs(page);
  await page.fill('#term-line', line);
  await page.press('#term-line', 'Enter');
  await waitForRun(page, before);
}

/** The transcript's entries: the command line and what it printed. */
function transcript(page) {
  return page.$$eval('#session-screen .term-entry', (entries) =>
    entries.map((e) => ({
      line: e.querySelector('.term-cmd')?.textContent.replace(/^\$ /, '').trim(),
      out: e.querySelector('.term-out')?.textContent ?? '',
      err: e.querySelector('.term-err')?.textContent ?? '',
      current: e.classList.contains('current'),
    })),
  );
}

function position(page) {
  return page.textContent('#position');
}

test('a session in the terminal: delete a Pod, see its replacement, step back, reload, share', { timeout: 240_000 }, async () => {
  const page = await openApp(env, { viewport: { width: 1440, height: 1000 } });
  await pickStarter(page, 'deployment');
  const applySteps = Number(/of (\d+)/.exec(await position(page))[1]);
  assert.equal(await page.isDisabled('#reset-cluster'), true, 'nothing to reset before a command');

  // The first entry is the manifest's apply, with kubectl's output.
  let entries = await transcript(page);
  assert.equal(entries.length, 1);
  assert.equal(entries[0].line, 'kubectl apply -f deployment.yaml');
  assert.match(entries[0].out, /^deployment\.apps\/shop created\n$/);

  await command(page, 'kubectl get pods');
  entries = await transcript(page);
  const before = [...entries[1].out.matchAll(/^(shop-\S+)\s+1\/1\s+Running/gm)].map((m) => m[1]);
  assert.equal(before.length, 2, entries[1].out);

  // Tab completes the name of the first Pod (its unique prefix past the ReplicaSet's hash).
  await page.fill('#term-line', `kubectl delete pod ${before[0].slice(0, -2)}`);
  await page.press('#term-line', 'Tab');
  assert.equal(await page.inputValue('#term-line'), `kubectl delete pod ${before[0]} `);
  const runsBefore = await runs(page);
  await page.press('#term-line', 'Enter');
  await waitForRun(page, runsBefore);
  entries = await transcript(page);
  assert.equal(entries[2].out, `pod "${before[0]}" deleted from default namespace\n`);
  // The timeline shows the delete's first step, in a group headed by the command.
  const group = page.locator('#phases > li.command').last();
  assert.match(await group.textContent(), new RegExp(`kubectl delete pod ${before[0]}`));
  assert.ok(await group.locator('button.step[aria-current]').count(), 'the current step is in the command group');
  assert.ok(entries[2].current, 'the transcript marks the command shown');
  assert.equal(await page.locator('#phases > li.command').count(), 2);

  await command(page, 'kubectl get pods');
  entries = await transcript(page);
  const after = [...entries[3].out.matchAll(/^(shop-\S+)\s+1\/1\s+Running/gm)].map((m) => m[1]);
  assert.equal(after.length, 2, entries[3].out);
  assert.ok(after.includes(before[1]) && !after.includes(before[0]), `the deleted Pod is replaced: ${after}`);

  // ↑ brings the last command back.
  await page.press('#term-line', 'ArrowUp');
  assert.equal(await page.inputValue('#term-line'), 'kubectl get pods');
  await page.fill('#term-line', '');

  // Step back into the first command's steps: its phases are all there.
  await page.click('#phases > li[data-phase="scheduling"] .phase-jump');
  assert.ok(Number(/Step (\d+)/.exec(await position(page))[1]) <= applySteps, await position(page));
  assert.ok((await transcript(page))[0].current, 'the apply is the command shown');
  const total = Number(/of (\d+)/.exec(await position(page))[1]);
  assert.ok(total > applySteps, `${total} steps in the session, ${applySteps} in the apply`);

  await screenshot(page, 'session-terminal', { fullPage: true });
  assert.deepEqual(await axeViolations(page), [], 'axe with the terminal in use');

  // A reload keeps the session (replayed: the same cluster, the same output).
  await page.reload();
  await waitForRun(page, 0);
  const reloaded = await transcript(page);
  assert.deepEqual(reloaded.map((e) => [e.line, e.out, e.err]), entries.map((e) => [e.line, e.out, e.err]));

  // The permalink carries the session.
  await page.click('#copy-link');
  await page.waitForSelector('#share-url');
  const link = await page.inputValue('#share-url');
  const hash = link.slice(link.indexOf('#'));
  assert.ok(hash.length > 1, `a permalink (${link})`);
  const other = await openApp(env, { hash, viewport: { width: 1440, height: 1000 } });
  const shared = await transcript(other);
  assert.deepEqual(shared.map((e) => [e.line, e.out]), entries.map((e) => [e.line, e.out]));
  await screenshot(other, 'session-permalink', { fullPage: true });
  assert.deepEqual(other.problems, []);

  // Reset cluster: the apply alone again.
  const r = await runs(page);
  await page.click('#reset-cluster');
  await waitForRun(page, r);
  assert.equal((await transcript(page)).length, 1);
  assert.equal(await page.locator('#phases > li.command').count(), 0);
  assert.deepEqual(await texts(page, '#session-screen .term-err'), []);
  assert.deepEqual(page.problems, []);
});

test("the terminal's errors are kubectl's, and a program the lab does not run says so", { timeout: 120_000 }, async () => {
  const page = await openApp(env);
  await command(page, 'kubectl delete pod nothere');
  await command(page, 'kubectl frobnicate');
  await command(page, 'vim pod.yaml');
  const entries = await transcript(page);
  assert.equal(entries.length, 4);
  assert.equal(entries[2].err, 'Error: unknown command "frobnicate" for "kubectl"\n');
  assert.match(entries[3].err, /^podlab: vim: the lab runs kubectl commands and sleep only/);
  assert.equal(entries[1].err, 'Error from server (NotFound): pods "nothere" not found\n');
  assert.deepEqual(page.problems, []);
});
