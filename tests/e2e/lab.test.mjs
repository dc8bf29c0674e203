// End-to-end tests of the lab page (release build, dist/) in Debian's Chromium: every starter
// manifest stepped to its end, the editor's markers, keyboard-only use, reloads, the crash
// recovery, a phone-sized screen, and axe-core in many states.
// Run alone: `trunk build index.html --release && node --test tests/e2e/` (see CONTRIBUTING.md).
//
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  axeViolations,
  openApp,
  pane,
  pickStarter,
  runs,
  screenshot,
  start,
  stepToEnd,
  texts,
  typeManifest,
  waitForRun,
} from './support.mjs';

const PHASES = [
  'Request',
  'Authentication',
  'Authorization',
  'Mutating admission',
  'Validation',
  'Validating admission',
  'etcd',
  'Controllers',
  'Scheduling',
  'Kubelet',
  'Container runtime',
  'CNI',
  'Containers',
  'Probes & status',
  'Endpoints',
];

const UNKNOWN_FIELD = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: web
    image: nginx:1.29
    imagePullPolcy: Always
`;

const BROKEN_YAML = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: app: web
spec:
  containers:
  - name: web
    image: nginx:1.29
`;

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

/** The number of steps the timeline lists under a phase. */
async function phaseSteps(page, id) {
  return page.locator(`#phases > li[data-phase="${id}"] .steps > li`).count();
}

/** Jumps to the first step of a phase through its button in the timeline. */
async function jumpTo(page, title) {
  await page.locator('#phases .phase-jump', { hasText: title }).first().click();
  await page.waitForFunction((t) => document.querySelector('.phase-tag')?.textContent === t, title);
}

async function checkAxe(page, state) {
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `axe violations in state "${state}"`);
}

test('the starter Pod: every phase listed in order, stepped to the end', async () => {
  const page = await openApp(env);
  assert.equal(await page.title(), 'podlab · Kubernetes learning lab');
  assert.equal((await texts(page, '.version'))[0], 'Kubernetes v1.37');
  assert.match(await page.inputValue('#manifest'), /kind: Pod\n/);
  assert.deepEqual(await texts(page, '#phases .phase-title'), PHASES);
  assert.equal(await page.locator('.boot').isVisible(), false, 'the loading text is hidden');
  assert.match((await texts(page, '#position'))[0], /^Step 1 of \d+ · 0\.000 s$/);
  assert.match((await texts(page, '#live'))[0], /^Step 1 of \d+, Request: kubectl → kube-apiserver: kubectl sends GET \/api\/v1\/namespaces\/default\/pods\/web$/);
  assert.equal((await texts(page, '#diagram-text'))[0], 'kubectl → kube-apiserver: kubectl sends GET /api/v1/namespaces/default/pods/web');
  // The first step's detail is the HTTP request.
  assert.match(await page.textContent('#step-body'), /HTTP request\s*GET \/api\/v1\/namespaces\/default\/pods\/web/);
  assert.equal(await pane(page, 'apply'), '$ kubectl apply -f pod.yaml\n');
  await screenshot(page, '01-start', { fullPage: true });

  await stepToEnd(page);
  assert.equal(await pane(page, 'apply'), '$ kubectl apply -f pod.yaml\npod/web created\n$ echo $?\n0\n');
  const wide = await pane(page, 'get pods -o wide');
  assert.match(wide, /^\$ kubectl get pods -o wide\nNAME +READY +STATUS +RESTARTS +AGE +IP +NODE +NOMINATED NODE +READINESS GATES\n/);
  // Scheduled on a worker (the control-plane node is tainted), an IP from that node's podCIDR.
  assert.match(wide, /\nweb +1\/1 +Running +0 +\S+ +10\.244\.[12]\.\d+ +kind-worker2? +<none> +<none>\n$/);
  const watch = await pane(page, 'get pods -w');
  assert.match(watch, /\nweb +0\/1 +Pending +0 +\S+\n(.*\n)*web +0\/1 +ContainerCreating +0 +\S+\n(.*\n)*web +1\/1 +Running +0 +\S+\n$/);
  assert.match(await pane(page, 'describe pod'), /Name: +web\nNamespace: +default/);
  assert.match((await texts(page, '#run-summary'))[0], /kubectl exited with 0$/);
  assert.deepEqual(await texts(page, '.accepted li'), ['pod/web created']);
  assert.equal(await page.locator('#failure').count(), 0);
  await screenshot(page, '02-pod-final', { fullPage: true });

  // Every phase of the path has steps for a Pod that runs (no Service: no endpoints).
  for (const id of ['request', 'authorization', 'mutating-admission', 'etcd', 'scheduling', 'kubelet', 'runtime', 'cni', 'containers', 'status']) {
    assert.ok((await phaseSteps(page, id)) > 0, `phase ${id} has steps`);
  }
  // Going back restores what was shown at that step: before the bind, no node.
  await jumpTo(page, 'Scheduling');
  assert.match(await pane(page, 'get pods -o wide'), /\nweb +0\/1 +Pending +0 +\S+ +<none> +<none> +<none> +<none>\n$/);
  await page.click('#first');
  assert.equal(await pane(page, 'apply'), '$ kubectl apply -f pod.yaml\n');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a Deployment: stored, and the controllers take over when the engine has them', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'deployment');
  assert.match(await page.inputValue('#manifest'), /kind: Deployment/);
  await stepToEnd(page);
  assert.match(await pane(page, 'apply'), /deployment\.apps\/shop created\n/);
  const workloads = await pane(page, 'deploy, rs, sts, ds, svc, pvc');
  assert.match(workloads, /\$ kubectl get deployments\nNAME +READY +UP-TO-DATE +AVAILABLE +AGE\nshop +(\d)\/\1 +\1 +\1 +/);
  assert.match(workloads, /\$ kubectl get replicasets\nNAME +DESIRED +CURRENT +READY +AGE\nshop-[a-z0-9]+ +(\d) +\1 +\1 +/);
  assert.ok((await phaseSteps(page, 'controllers')) > 0);
  const wide = await pane(page, 'get pods -o wide');
  const rows = wide.split('\n').filter((l) => l.startsWith('shop-'));
  assert.ok(rows.length > 0, wide);
  for (const row of rows) assert.match(row, /^shop-[a-z0-9]+-[a-z0-9]{5} +1\/1 +Running +0 +\S+ +10\.244\.\d+\.\d+ +kind-worker2? /);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a Pod that stays Pending: FailedScheduling once the scheduler runs', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'pending');
  await stepToEnd(page);
  assert.match(await pane(page, 'apply'), /pod\/big-batch created\n/);
  assert.match(await pane(page, 'get events'), /FailedScheduling +pod\/big-batch +0\/3 nodes are available/);
  assert.match(await pane(page, 'get pods -o wide'), /\nbig-batch +0\/1 +Pending +0 +\S+ +<none> +<none> +<none> +<none>\n$/);
  // The scheduling cycle's step: the per-node filter table and the upstream message.
  await jumpTo(page, 'Scheduling');
  for (let i = 0; i < 10 && !/0\/3 nodes are available/.test(await page.textContent('#step-body')); i++) {
    await page.click('#forward');
  }
  const body = await page.textContent('#step-body');
  assert.match(body, /0\/3 nodes are available: 1 node\(s\) had untolerated taint/);
  assert.match(body, /Insufficient cpu/);
  assert.match(body, /kind-worker2/);
  await screenshot(page, '03-scheduler', { fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Forbidden: alice may not create Pods in dev', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'forbidden');
  assert.equal(await page.inputValue('#preset'), 'rbac-alice');
  const denial = 'User "alice" cannot create resource "pods" in API group "" in the namespace "dev"';
  // Where it broke, said before stepping.
  assert.match(await page.textContent('#failure'), /Step 8, Authorization \(kube-apiserver\)/);
  assert.ok((await page.textContent('#failure .message')).includes(denial));
  // The editor marks the namespace line.
  assert.deepEqual(await texts(page, '.gutter .ln.err'), ['7']);
  assert.match((await texts(page, '.marker'))[0], /^line 7, column 3 Forbidden/);
  await page.click('#failure button');
  assert.match(await page.textContent('#step-body'), /Denied by (Node,)?RBAC/);
  assert.match(await page.textContent('#step-body'), /Bindings considered/);
  assert.match((await texts(page, '#diagram-text'))[0], /^kube-apiserver: forbidden: alice may not create pods/);
  await checkAxe(page, 'forbidden, authorization step');
  await stepToEnd(page);
  const apply = await pane(page, 'apply');
  assert.ok(apply.includes(`Error from server (Forbidden): error when creating "debug.yaml": pods is forbidden: ${denial}`), apply);
  assert.match(apply, /\$ echo \$\?\n1\n$/);
  await screenshot(page, '04-forbidden', { fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Pod Security: a privileged Pod in a restricted namespace', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'privileged');
  assert.equal(await page.inputValue('#preset'), 'restricted-namespace');
  await stepToEnd(page);
  const apply = await pane(page, 'apply');
  {
    assert.match(apply, /pods "node-debugger" is forbidden: violates PodSecurity "restricted:latest": host namespaces \(hostNetwork=true\), privileged/);
    assert.match(await page.textContent('#failure'), /Validating admission \(kube-apiserver\): PodSecurity: denied/);
    assert.match((await texts(page, '.marker'))[0], /Denied by PodSecurity/);
    await page.click('#failure button');
    assert.match(await page.textContent('#step-body'), /Admission plugin PodSecurity \(validating\)\s*Denied/);
    await screenshot(page, '12-pod-security', { fullPage: true });
    await checkAxe(page, 'Pod Security denial');
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a typo in the image: accepted by the API server', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'image-typo');
  await stepToEnd(page);
  assert.match(await pane(page, 'apply'), /pod\/web-typo created\n/);
  assert.match(await pane(page, 'get pods -w'), /\nweb-typo +0\/1 +ErrImagePull +0 +\S+\n(.*\n)*web-typo +0\/1 +ImagePullBackOff +0 +\S+\n/);
  assert.match(await pane(page, 'get events'), /Failed +pod\/web-typo +Failed to pull image "ngnix:1\.29"/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the pod-update starter: re-applying a Pod with another port is refused as a real cluster refuses it', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'pod-update');
  await stepToEnd(page);
  const apply = await pane(page, 'apply');
  assert.match(apply, /pod\/web created\nThe Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`,/);
  assert.match(apply, /\n- \t+ContainerPort: 80,\n\+ \t+ContainerPort: 8080,\n/);
  await screenshot(page, '14-pod-update-refused');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the StatefulSet starter: db-0 is created and Ready before db-1 is created', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'statefulset');
  // The controller's steps, in timeline order: db-0, its wait, then db-1.
  const controllers = (await texts(page, '#phases > li[data-phase="controllers"] .steps > li')).join('\n');
  const create0 = controllers.indexOf('StatefulSet db: create Pod db-0');
  const waits = controllers.indexOf('StatefulSet db waits: db-1 waits until db-0 is Running and Ready');
  const create1 = controllers.indexOf('StatefulSet db: create Pod db-1');
  assert.ok(create0 >= 0 && waits > create0 && create1 > waits, controllers);
  await stepToEnd(page);
  assert.match(await pane(page, 'apply'), /service\/db created\nstatefulset\.apps\/db created\n/);
  // kubectl get pods -w: db-0 goes Running and 1/1 before db-1 first appears.
  const watch = await pane(page, 'get pods -w');
  const firstDb1 = watch.search(/\ndb-1 /);
  const db0Ready = watch.search(/\ndb-0 +1\/1 +Running/);
  assert.ok(db0Ready > 0 && firstDb1 > db0Ready, watch);
  const workloads = await pane(page, 'deploy, rs, sts, ds, svc, pvc');
  assert.match(workloads, /\$ kubectl get statefulsets\nNAME +READY +AGE\ndb +2\/2 +\S+\n/);
  assert.match(await pane(page, 'get pods -o wide'), /\ndb-0 +1\/1 +Running(.*\n)+db-1 +1\/1 +Running/);
  await screenshot(page, '16-statefulset', { fullPage: true });
  assert.equal((await page.locator('#not-modelled').count()), 0, 'a StatefulSet is modelled, not announced');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a Service with no endpoints', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'service');
  await stepToEnd(page);
  assert.match(await pane(page, 'apply'), /service\/checkout created\n/);
  const workloads = await pane(page, 'deploy, rs, sts, ds, svc, pvc');
  assert.match(workloads, /\$ kubectl get services\nNAME +TYPE +CLUSTER-IP +EXTERNAL-IP +PORT\(S\) +AGE\n(.*\n)*checkout +ClusterIP +/);
  // The selector matches no Pod: the controller writes an EndpointSlice with no endpoints.
  assert.ok((await phaseSteps(page, 'endpoints')) > 0);
  assert.match(workloads, /checkout-\S+ +IPv4 +<unset> +<unset>/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the editor marks an unknown field and a YAML error on their lines', async () => {
  const page = await openApp(env);
  await typeManifest(page, UNKNOWN_FIELD);
  await page.waitForSelector('.marker');
  assert.deepEqual(await texts(page, '.gutter .ln.err'), ['9']);
  assert.match((await texts(page, '.marker'))[0], /^line 9, column 5 Unknown field\s*unknown field "spec\.containers\[0\]\.imagePullPolcy"$/);
  assert.equal(await page.getAttribute('#manifest', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#failure'), /Validation/);
  await screenshot(page, '05-unknown-field');
  await checkAxe(page, 'unknown field marked');

  await typeManifest(page, BROKEN_YAML);
  assert.deepEqual(await texts(page, '.gutter .ln.err'), ['5']);
  assert.match((await texts(page, '.marker'))[0], /^line 5, column 14 YAML syntax error\s*mapping values are not allowed in this context$/);
  await stepToEnd(page);
  assert.match(await pane(page, 'apply'), /error: error parsing pod\.yaml: error converting YAML to JSON: yaml: line \d+: mapping values are not allowed in this context/);
  // The marker's button puts the cursor on the line.
  await page.click('.marker button');
  const caret = await page.evaluate(() => {
    const ta = document.querySelector('#manifest');
    return [document.activeElement === ta, ta.value.slice(0, ta.selectionStart).split('\n').length];
  });
  assert.deepEqual(caret, [true, 5]);
  await screenshot(page, '06-yaml-error');
  await checkAxe(page, 'YAML error marked');

  // Fixing the text clears the markers.
  await typeManifest(page, BROKEN_YAML.replace('labels: app: web', 'labels: {app: web}'));
  assert.equal(await page.locator('.marker').count(), 0);
  assert.equal(await page.getAttribute('#manifest', 'aria-invalid'), null);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

const UNMODELLED = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 2
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
      - name: db
        image: nginx:1.29
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  defaultBackend:
    service:
      name: web
      port:
        number: 80
`;

test('never a silent nothing: a kind whose component the lab lacks is announced', async () => {
  const page = await openApp(env);
  await typeManifest(page, UNMODELLED);
  await page.waitForSelector('#not-modelled');
  const text = await page.textContent('#not-modelled');
  assert.match(text, /Not modelled by the lab/);
  // The Ingress is always announced (kind installs no ingress controller); the StatefulSet
  // only while its controller is not modelled.
  assert.match(text, /an ingress controller \(an add-on\) acts on Ingress default\/web/);
  const paragraphs = await page.locator('#not-modelled p:not(.actions)').count();
  assert.ok(paragraphs >= 1);
  // Its button shows the warning step, whose detail says the same.
  const buttons = page.locator('#not-modelled button');
  await buttons.nth(paragraphs - 1).click();
  await page.waitForFunction(() => /not modelled: an ingress controller/.test(document.querySelector('#step-summary')?.textContent ?? ''));
  await screenshot(page, '15-not-modelled', { fullPage: true });
  await checkAxe(page, 'not modelled announced');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('keyboard only: pick a starter, step with the arrow keys, play, switch panes', async () => {
  const page = await openApp(env);
  // Tab from the top of the page to the starter menu.
  let focused = '';
  for (let i = 0; i < 10 && focused !== 'starter'; i++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement?.id ?? '');
  }
  assert.equal(focused, 'starter');
  const before = await runs(page);
  await page.keyboard.press('ArrowDown'); // the next starter: the Deployment
  await waitForRun(page, before);
  assert.match(await page.inputValue('#manifest'), /kind: Deployment/);

  // Arrow keys step through the run when the focus is not in a text field.
  await page.keyboard.press('Escape');
  await page.evaluate(() => document.activeElement?.blur());
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  assert.match((await texts(page, '#position'))[0], /^Step 4 of /);
  assert.match((await texts(page, '#live'))[0], /^Step 4 of \d+, etcd: kube-apiserver → etcd: reads \/registry\/deployments\/default\/shop: not found$/);
  await page.keyboard.press('ArrowLeft');
  assert.match((await texts(page, '#position'))[0], /^Step 3 of /);

  // End and Home go to the last and first step.
  await page.keyboard.press('End');
  const [last, steps] = /Step (\d+) of (\d+)/.exec((await texts(page, '#position'))[0]).slice(1);
  assert.equal(last, steps);
  await page.keyboard.press('Home');
  assert.match((await texts(page, '#position'))[0], /^Step 1 of /);
  // Near the end, Tab to Play, start it with the keyboard, wait for the end.
  await page.keyboard.press('End');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await page.focus('#back');
  let id = '';
  for (let i = 0; i < 5 && id !== 'play'; i++) {
    await page.keyboard.press('Tab');
    id = await page.evaluate(() => document.activeElement?.id ?? '');
  }
  assert.equal(id, 'play');
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
  await page.waitForFunction(() => document.querySelector('#play')?.getAttribute('aria-pressed') === 'false', null, { timeout: 60_000 });
  const [n, total] = /Step (\d+) of (\d+)/.exec((await texts(page, '#position'))[0]).slice(1);
  assert.equal(n, total, 'playback stops at the last step');

  // The kubectl tabs: arrow keys move between them.
  await page.focus('.panes [role=tab][aria-selected=true]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'get pods -w');
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'deploy, rs, sts, ds, svc, pvc');
  assert.match(await page.textContent('#pane-body'), /kubectl get deployments/);
  // Focus is visible on buttons.
  await page.focus('#first');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.equal(outline, 'solid');
  await screenshot(page, '07-keyboard', { fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the text and the settings survive a reload', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'forbidden');
  await typeManifest(page, UNKNOWN_FIELD);
  await page.reload();
  await waitForRun(page, 0);
  assert.equal(await page.inputValue('#manifest'), UNKNOWN_FIELD);
  assert.equal(await page.inputValue('#preset'), 'rbac-alice');
  // As alice, the request is refused before its body is decoded: the Forbidden marker sits on
  // the metadata (the manifest names no namespace), not on the unknown field.
  assert.deepEqual(await texts(page, '.gutter .ln.err'), ['3']);
  assert.match((await texts(page, '.marker'))[0], /^line 3, column 1 Forbidden/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('identity: impersonation as alice from the admin', async () => {
  const page = await openApp(env);
  await pickStarter(page, 'forbidden');
  // The identity is in the Cluster view, one click away from the manifest.
  await page.click('#tab-c-cluster');
  let before = await runs(page);
  await page.selectOption('#user', 'kubernetes-admin');
  await waitForRun(page, before);
  before = await runs(page);
  await page.fill('#as-user', 'alice');
  await waitForRun(page, before);
  before = await runs(page);
  await page.fill('#as-groups', 'developers');
  await waitForRun(page, before);
  assert.equal(
    (await texts(page, '#identity-line'))[0],
    'kubectl apply -f debug.yaml --user kubernetes-admin --as alice --as-group developers',
  );
  await jumpTo(page, 'Authentication');
  assert.match(await page.textContent('#step-body'), /kubernetes-admin/);
  assert.match(await page.textContent('#failure'), /alice may not create pods/);
  // The admin without impersonation may.
  before = await runs(page);
  await page.fill('#as-user', '');
  await waitForRun(page, before);
  assert.equal(await page.locator('#failure').count(), 0);
  await page.locator('.cluster-yaml summary').click();
  await checkAxe(page, 'cluster YAML open');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a broken cluster says so, and the nodes are shown at each step', async () => {
  const page = await openApp(env);
  const nodes = await texts(page, '.node .node-head strong');
  assert.deepEqual(nodes, ['kind-control-plane', 'kind-worker', 'kind-worker2']);
  assert.match(await page.textContent('.node[data-node="kind-control-plane"]'), /node-role\.kubernetes\.io\/control-plane:NoSchedule/);
  assert.match(await page.textContent('.node[data-node="kind-worker"]'), /CPU: 0 of 4 requested \(0%\)/);
  await page.click('#tab-c-cluster');
  await page.locator('.cluster-yaml summary').click();
  const before = await runs(page);
  await page.fill('#cluster-text', 'kind: LabSettings\napiVersion: podlab.dev/v1alpha1\nusers: 3\n');
  await waitForRun(page, before, { timeline: false });
  await page.waitForSelector('#lab-error');
  assert.match(await page.textContent('#lab-error'), /The lab cannot start: the cluster is invalid/);
  assert.equal(await page.inputValue('#preset'), 'custom');
  await page.selectOption('#preset', 'tight-resources');
  await page.waitForSelector('#run-summary');
  assert.match(await page.textContent('.node[data-node="kind-worker"]'), /CPU: 0 of 900m requested/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the cluster panel sums up namespaces, RBAC bindings, quotas and webhooks at each step', async () => {
  const page = await openApp(env);
  await page.click('#tab-c-cluster');
  await page.selectOption('#preset', 'full');
  await page.waitForSelector('#run-summary');
  await page.waitForSelector('.policy-item[data-namespace="dev"]');
  const dev = () => page.textContent('.policy-item[data-namespace="dev"]');
  assert.match(await dev(), /ResourceQuota/);
  assert.match(await page.textContent('.policy-item[data-namespace="default"]'), /Pod Security: no labels \(privileged\)/);
  const summaries = await texts(page, '.policy summary');
  assert.match(summaries[1], /^RBAC bindings \(\d+\) and \d+ bootstrap bindings named system:…$/);
  assert.equal(summaries[2], 'Admission webhooks (1)');
  await page.locator('.policy summary', { hasText: 'RBAC bindings' }).click();
  await page.locator('.policy summary', { hasText: 'Admission webhooks' }).click();
  const bindings = await texts(page, '.policy-item strong');
  assert.ok(bindings.includes('ClusterRoleBinding cluster-admin'), bindings.join('\n'));
  const hook = page.locator('.policy-item', { hasText: 'images.policy.example.com' });
  assert.match(await hook.textContent(), /ValidatingWebhookConfiguration image-policy/);
  assert.match(await hook.textContent(), /CREATE, UPDATE pods/);
  assert.match(await hook.textContent(), /namespaces with kubernetes\.io\/metadata\.name=prod; failurePolicy Fail/);
  await page.locator('.policy-item', { hasText: 'ClusterRoleBinding cluster-admin' }).scrollIntoViewIfNeeded();
  await screenshot(page, '13-cluster-policies');
  await checkAxe(page, 'cluster policies open');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a crash shows the recovery message and keeps the text; the next visit does not rerun by itself', async () => {
  const page = await openApp(env, { hash: '#podlab-panic-test', wait: false });
  await page.waitForSelector('#recovery');
  assert.match(await page.textContent('#recovery'), /Something went wrong in podlab/);
  assert.match(await page.inputValue('#recovery-text'), /kind: Pod/);
  await screenshot(page, '08-recovery');
  assert.ok(page.problems.some((p) => p.includes('podlab panic test')), page.problems.join('\n'));
  await page.context().close();

  // A page that died during a run leaves a marker: the next visit waits for the learner.
  const again = await openApp(env, { storage: { 'podlab.running': '1', 'podlab.manifest': UNKNOWN_FIELD }, wait: false });
  await again.waitForSelector('.notice');
  assert.match(await again.textContent('.notice'), /The lab stopped during the last run/);
  assert.equal(await again.inputValue('#manifest'), UNKNOWN_FIELD);
  await again.getByRole('button', { name: 'Run again' }).click();
  await waitForRun(again, 0);
  assert.deepEqual(await texts(again, '.gutter .ln.err'), ['9']);
  assert.deepEqual(again.problems, []);
  await again.context().close();
});

test('a phone-sized screen: one column, nothing wider than the screen', async () => {
  const page = await openApp(env, { viewport: { width: 360, height: 780 } });
  // One view at a time: the starter menu is in the Manifest view, the outcome in the Journey.
  await page.click('#tab-n-manifest');
  await pickStarter(page, 'forbidden');
  await page.click('#tab-n-journey');
  await page.click('#failure button');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `the page is ${width}px wide`);
  await screenshot(page, '09-phone', { fullPage: true });
  await checkAxe(page, 'phone width');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`axe finds no violation (${colorScheme} scheme): start, last step, every pane`, async () => {
    const page = await openApp(env, { colorScheme });
    await checkAxe(page, `${colorScheme}: start`);
    await stepToEnd(page);
    await checkAxe(page, `${colorScheme}: last step`);
    for (const label of ['get pods -w', 'describe pod', 'get events']) {
      await pane(page, label);
    }
    await checkAxe(page, `${colorScheme}: get events pane`);
    await jumpTo(page, 'Validation');
    await checkAxe(page, `${colorScheme}: validation step with defaults`);
    await screenshot(page, `10-${colorScheme}`, { fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('the theme button switches light and dark, and remembers it', async () => {
  const page = await openApp(env, { colorScheme: 'light' });
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await bg();
  await page.getByRole('button', { name: 'Theme: system' }).click();
  assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
  await page.getByRole('button', { name: 'Theme: light' }).click();
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  assert.notEqual(await bg(), light);
  await page.reload();
  await waitForRun(page, 0);
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  await checkAxe(page, 'dark theme chosen by the button');
  await screenshot(page, '11-dark-toggle');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
