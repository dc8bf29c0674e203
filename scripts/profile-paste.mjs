// Where the page's time goes when a learner pastes a big manifest or types into one: CDP's
// sampling profiler (`Profiler`) around the paste (the editor textarea's value set and an
// `input` event dispatched, as `page.fill` does) and the debounced run that follows, then the
// samples attributed to functions (self and total time) and to the parts of the app they
// belong to. A diagnosis tool, not a test.
//
//   node scripts/profile-paste.mjs [--dist DIR] [--case NAME]... [--limit SECONDS] [--json FILE]
//   (PODLAB_CPU_SLOWDOWN=4 in the environment: with the CPU 4 times slower)
//
// Cases: paste-200k (a 200 KB manifest from scripts/big-manifest.mjs), paste-1m (1 MB),
// paste-5m (5 MB, the last 4 MB a ConfigMap of dashboards the API server refuses),
// type-2000 (one key typed at the end of a 2,000-line manifest already run), file:PATH (a
// paste of that file). --limit caps
// how long a case waits for its run (default 240 s): the profile of a page still frozen then
// is taken as it is.
//
// Function names: the release build's wasm has none (wasm-opt drops the name section).
// `scripts/profile-build.sh` makes a copy of dist/ whose wasm keeps them (same code, the
// cargo wasm through wasm-bindgen and wasm-opt -Oz with -g); pass it with --dist.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { bigManifest } from './big-manifest.mjs';
import { serveDir } from './static-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.PODLAB_CHROMIUM || '/usr/bin/chromium';
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

// The part of the app a function belongs to, by the path in its (demangled) name. First match
// wins, so the more specific prefixes come first.
const MODULES = [
  [/^podlab::highlight/, 'editor highlighting (src/highlight.rs)'],
  [/^podlab::ui::editor/, 'editor view (src/ui/editor.rs)'],
  [/^podlab::markers/, 'markers (src/markers.rs)'],
  [/^podlab::ui::timeline/, 'timeline view (src/ui/timeline.rs)'],
  [/^podlab::storage/, 'storage (src/storage.rs)'],
  [/^podlab::share/, 'permalink (src/share.rs)'],
  [/^podlab::state/, 'run state (src/state.rs)'],
  [/^podlab::ui::(\w+)/, (m) => `${m[1]} view (src/ui/${m[1]}.rs)`],
  [/^podlab::(\w+)/, (m) => `app (src/${m[1]}.rs)`],
  [/^podlab_learn::/, 'learn (crates/learn)'],
  [/^podlab_engine::manifest/, 'engine: manifest reader (manifest.rs)'],
  [/^podlab_engine::linemap/, 'engine: line map (linemap.rs)'],
  [/^podlab_engine::(\w+)/, (m) => `engine: ${m[1]}`],
  [/^(tachys|reactive_graph|leptos\w*|any_spawner|throw_error|or_poisoned)::/, 'Leptos (rendering, reactivity)'],
  [/^(serde_yaml|unsafe_libyaml|yaml_rust\w*|saphyr\w*)::/, 'YAML parsing (libs)'],
  [/^(serde_json|serde|serde_core)::/, 'serde (libs)'],
  [/^(web_sys|js_sys|wasm_bindgen)::|^__wbg|^__wbindgen/, 'wasm-bindgen glue'],
  [/^(core|alloc|std|podlab_alloc|dlmalloc|hashbrown)::|^(memcpy|memmove|memset|memcmp)$/, 'Rust runtime (core/alloc)'],
];

function moduleOf(name) {
  for (const [re, label] of MODULES) {
    const m = re.exec(name);
    if (m) return typeof label === 'function' ? label(m) : label;
  }
  return null;
}

/** Aggregates a CDP profile: self and total time by function, and time by app part. */
export function analyse(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (n) => {
    const f = n.callFrame;
    if (f.functionName) return f.functionName.replace(/::h[0-9a-f]{16}$/, '');
    if (f.url) return `(anonymous) ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    return '(anonymous)';
  };
  const self = new Map();
  const total = new Map();
  const parts = new Map();
  let sum = 0;
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] is the time before sample i; the time a sample stands for is the gap to the
    // next one.
    const dt = (i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0) / 1000;
    sum += dt;
    let node = byId.get(samples[i]);
    const leaf = nameOf(node);
    self.set(leaf, (self.get(leaf) ?? 0) + dt);
    const seen = new Set();
    let part = null;
    let wasmish = false;
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id);
      const name = nameOf(n);
      if (!seen.has(name)) {
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + dt);
      }
      const m = moduleOf(name);
      if (m) wasmish = true;
      // The nearest frame that names a part of the app (not the runtime, glue or libraries)
      // owns the sample.
      if (!part && m && !/^(Rust runtime|wasm-bindgen glue|serde|YAML parsing)/.test(m)) part = m;
    }
    if (!part) {
      if (['(idle)', '(program)', '(garbage collector)'].includes(leaf)) part = leaf;
      else if (wasmish) part = 'wasm, no app frame on the stack (runtime, glue, libraries)';
      else part = 'JavaScript / browser';
    }
    parts.set(part, (parts.get(part) ?? 0) + dt);
  }
  const top = (m, n) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { sum, self: top(self, 25), total: top(total, 40), parts: top(parts, 30) };
}

function fmt(x) {
  return `${x.toFixed(0)} ms`;
}

async function openLab(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    window.__longtasks = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => Number(document.querySelector('main.lab')?.dataset.runs ?? 0) > 0, null, {
    timeout: 60_000,
  });
  return { context, page };
}

const runs = (page) => page.evaluate(() => Number(document.querySelector('main.lab')?.dataset.runs ?? 0));

/** Sets the editor's text as a paste does; resolves to the ms the input event took. */
function paste(page, text) {
  return page.evaluate((t) => {
    const ta = document.querySelector('#manifest');
    ta.focus();
    const start = performance.now();
    ta.value = t;
    ta.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
    return performance.now() - start;
  }, text);
}

async function metrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

/** Runs one case under the profiler; returns what it measured and the profile's analysis. */
async function profileCase(browser, url, name, limitMs) {
  const { context, page } = await openLab(browser, url);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  // PODLAB_CPU_SLOWDOWN=4: the CPU 4 times slower, as the e2e suite and the load report's phones.
  const slowdown = Number(process.env.PODLAB_CPU_SLOWDOWN ?? 1);
  if (slowdown !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  let text;
  if (name === 'type-2000') {
    text = bigManifest({ lines: 2000 });
    const before = await runs(page);
    await paste(page, text);
    await page.waitForFunction((n) => Number(document.querySelector('main.lab')?.dataset.runs ?? 0) > n, before, {
      timeout: limitMs,
      polling: 200,
    });
  } else if (name.startsWith('file:')) {
    text = readFileSync(name.slice(5), 'utf8');
  } else {
    const sizes = { 'paste-200k': [200 * 1024, 0], 'paste-1m': [1024 * 1024, 0], 'paste-5m': [5 * 1024 * 1024, 4 * 1024 * 1024] };
    if (!sizes[name]) throw new Error(`profile-paste: unknown case ${name}`);
    text = bigManifest({ bytes: sizes[name][0], dashboards: sizes[name][1] });
  }
  await page.evaluate(() => {
    window.__longtasks = [];
  });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  const m0 = await metrics(cdp);
  await cdp.send('Profiler.start');
  const before = await runs(page);
  const t0 = Date.now();
  let input;
  if (name === 'type-2000') {
    // One key at the end of the text, as a learner types it (keydown, input, keyup).
    await page.evaluate(() => {
      const ta = document.querySelector('#manifest');
      ta.focus();
      ta.setSelectionRange(ta.value.length, ta.value.length);
    });
    const s = Date.now();
    await page.keyboard.type('#');
    input = Date.now() - s;
  } else {
    input = await paste(page, text);
  }
  let finished = true;
  try {
    await page.waitForFunction((n) => Number(document.querySelector('main.lab')?.dataset.runs ?? 0) > n, before, {
      timeout: limitMs,
      polling: 200,
    });
  } catch {
    finished = false;
  }
  const elapsed = Date.now() - t0;
  const { profile } = await cdp.send('Profiler.stop');
  const m1 = await metrics(cdp);
  let longtasks = [];
  let position = null;
  if (finished) {
    // Let the rendering after the run finish, then read what the page recorded.
    await page.waitForTimeout(500);
    longtasks = await page.evaluate(() => window.__longtasks);
    position = await page.textContent('#position');
  }
  await context.close();
  const d = (k) => (m1[k] - m0[k]) * 1000;
  return {
    name,
    bytes: Buffer.byteLength(text),
    lines: text.split('\n').length - 1,
    input,
    finished,
    elapsed,
    position,
    longtasks: longtasks.map((t) => Math.round(t.duration)),
    browser: {
      script: d('ScriptDuration'),
      layout: d('LayoutDuration'),
      style: d('RecalcStyleDuration'),
      task: d('TaskDuration'),
    },
    nodes: m1.Nodes,
    analysis: analyse(profile),
    profile,
  };
}

function print(r) {
  const out = [];
  out.push(`## ${r.name}: ${(r.bytes / 1024).toFixed(0)} KB, ${r.lines} lines`);
  out.push('');
  out.push(
    `input event handled in ${fmt(r.input)}; ${r.finished ? `run shown after ${(r.elapsed / 1000).toFixed(1)} s (${r.position})` : `NOT finished after ${(r.elapsed / 1000).toFixed(1)} s (profile taken then)`}`,
  );
  out.push(
    `browser metrics over the case: script ${fmt(r.browser.script)}, style ${fmt(r.browser.style)}, layout ${fmt(r.browser.layout)}, all tasks ${fmt(r.browser.task)}; DOM nodes after: ${r.nodes}`,
  );
  if (r.finished) out.push(`long tasks (ms): ${r.longtasks.join(', ') || 'none'}`);
  out.push(`profiled: ${fmt(r.analysis.sum)}`);
  out.push('');
  out.push('| part of the app (nearest app frame on the stack) | ms | % |');
  out.push('|---|---|---|');
  for (const [k, v] of r.analysis.parts) out.push(`| ${k} | ${v.toFixed(0)} | ${((100 * v) / r.analysis.sum).toFixed(1)} |`);
  out.push('');
  out.push('| self time: function | ms |');
  out.push('|---|---|');
  for (const [k, v] of r.analysis.self.slice(0, 20)) out.push(`| \`${k.slice(0, 140)}\` | ${v.toFixed(0)} |`);
  out.push('');
  out.push('| total time: function | ms |');
  out.push('|---|---|');
  for (const [k, v] of r.analysis.total.filter(([k]) => moduleOf(k) || /podlab/.test(k)).slice(0, 30)) {
    out.push(`| \`${k.slice(0, 140)}\` | ${v.toFixed(0)} |`);
  }
  out.push('');
  return out.join('\n');
}

async function main() {
  const args = process.argv.slice(2);
  let dist = join(root, 'dist');
  let limit = 240;
  let json = null;
  const cases = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--dist') dist = args[++i];
    else if (args[i] === '--case') cases.push(args[++i]);
    else if (args[i] === '--limit') limit = Number(args[++i]);
    else if (args[i] === '--json') json = args[++i];
    else throw new Error(`profile-paste: unknown argument ${args[i]}`);
  }
  if (!cases.length) cases.push('paste-200k', 'type-2000', 'paste-1m');
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`profile-paste: ${dist} has no build`);
  const { server, url } = await serveDir(dist);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const results = [];
  try {
    for (const c of cases) {
      console.error(`profile-paste: ${c}...`);
      const r = await profileCase(browser, url, c, limit * 1000);
      results.push(r);
      console.log(print(r));
    }
  } finally {
    await browser.close();
    await new Promise((ok) => server.close(ok));
  }
  if (json) {
    writeFileSync(json, JSON.stringify(results.map(({ profile, ...r }) => r), null, 2));
    for (const r of results) writeFileSync(json.replace(/\.json$/, `.${r.name.replace(/\W+/g, '_')}.cpuprofile`), JSON.stringify(r.profile));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
