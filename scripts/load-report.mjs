// How fast the lab page loads, in Debian's Chromium with CDP network and CPU throttling,
// served with brotli as a static host serves it (scripts/static-server.mjs, compress mode).
// A report: it prints a markdown table and asserts nothing. Run through
// scripts/load-report.sh (which builds dist/ first unless given --no-build).
//
//   node scripts/load-report.mjs [--runs N] [--profile NAME]... [--json FILE]
//
// For each profile, N runs (default 5), each in a fresh browser context (empty HTTP cache,
// storage and service worker):
//
// - FCP: the page's `first-contentful-paint` entry (ms after navigation start).
// - manifest editable: when the manifest's textarea (the boot shell's #boot-manifest, or the
//   lab's #manifest) is first in the DOM with the manifest in it, and painted: the later of
//   that moment and FCP.
// - wasm: the resource timing `responseEnd` of the .wasm file (its download done).
// - first run shown: the `performance.now()` at which a MutationObserver, installed before
//   any page script runs, first sees the timeline's `#position` element read "Step N of M"
//   (the engine's first run rendered into the DOM). Measured from navigation start.
// - repeat visit: the same context loads the page again once its service worker is active
//   and has precached the build (its `ready` promise resolved): first run shown again.
// - transfer: the sum of `encodedDataLength` of the page's CDP `Network.loadingFinished`
//   events (what the page itself fetched over the network); "server" is every body byte the
//   server sent for that run, which also counts the service worker's precache requests.
//
// Medians of the N runs. Throttling is CDP's (`Network.emulateNetworkConditions`: the
// latency is added per request, it does not model TCP round trips or slow start, so real
// networks are somewhat slower; `Emulation.setCPUThrottlingRate`). The service worker's own
// fetches are not throttled by the page's CDP session.
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
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

const mbps = (m) => Math.round((m * 1_000_000) / 8); // bytes per second
export const PROFILES = [
  { name: 'desktop', label: 'Desktop, unthrottled', network: null, cpu: 1 },
  {
    name: 'mobile-p75',
    label: 'Mobile p75 (9 Mbps, 100 ms RTT, CPU 4x)',
    network: { latency: 100, downloadThroughput: mbps(9), uploadThroughput: mbps(3) },
    cpu: 4,
  },
  {
    name: 'slow-4g',
    label: 'Slow 4G (1.6 Mbps, 150 ms RTT, CPU 4x)',
    network: { latency: 150, downloadThroughput: mbps(1.6), uploadThroughput: mbps(0.75) },
    cpu: 4,
  },
];

// Installed before any script of the page: records when #position first reads "Step N of M",
// and when a textarea holding the manifest first exists.
function observeFirstRun() {
  window.__podlabFirstRun = null;
  window.__podlabEditable = null;
  const check = () => {
    if (window.__podlabEditable === null) {
      const t = document.getElementById('boot-manifest') ?? document.getElementById('manifest');
      if (t && !t.hidden && t.value) window.__podlabEditable = performance.now();
    }
    if (window.__podlabFirstRun !== null) return;
    const el = document.getElementById('position');
    if (el && /^Step \d+ of \d+/.test(el.textContent ?? '')) {
      window.__podlabFirstRun = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

async function throttle(cdp, profile) {
  await cdp.send('Network.enable');
  if (profile.network) {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
}

/** Loads the page (navigation in `page`) and returns its timings and transfer. */
async function load(page, cdp, url, stats) {
  let encoded = 0;
  const count = (e) => {
    encoded += e.encodedDataLength;
  };
  cdp.on('Network.loadingFinished', count);
  const sentBefore = stats.bytes;
  await page.goto(url, { waitUntil: 'commit', timeout: 180_000 });
  await page.waitForFunction(() => window.__podlabFirstRun !== null, null, { timeout: 180_000, polling: 100 });
  const t = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
    const wasm = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm'));
    const editable = window.__podlabEditable === null || fcp === null ? null : Math.max(fcp, window.__podlabEditable);
    return { fcp, editable, firstRun: window.__podlabFirstRun, wasm: wasm ? wasm.responseEnd : null };
  });
  cdp.off('Network.loadingFinished', count);
  return { ...t, encoded, sentBefore };
}

async function oneRun(browser, url, stats, profile) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(observeFirstRun);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const cdp = await context.newCDPSession(page);
  await throttle(cdp, profile);

  const cold = await load(page, cdp, url, stats);
  // The service worker installs after the first load and precaches the build.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  const coldServer = stats.bytes - cold.sentBefore;

  const warm = await load(page, cdp, url, stats);
  const warmServer = stats.bytes - warm.sentBefore;
  await context.close();
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  return {
    fcp: cold.fcp,
    editable: cold.editable,
    wasm: cold.wasm,
    firstRun: cold.firstRun,
    transfer: cold.encoded,
    server: coldServer,
    repeatFcp: warm.fcp,
    repeatFirstRun: warm.firstRun,
    repeatTransfer: warm.encoded,
    repeatServer: warmServer,
  };
}

const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x) => (x === null ? 'n/a' : x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`);
const kb = (x) => (x === null ? 'n/a' : `${(x / 1024).toFixed(1)} KB`);

async function main() {
  const args = process.argv.slice(2);
  let runs = 5;
  let json = null;
  const only = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--runs') runs = Number(args[++i]);
    else if (args[i] === '--profile') only.push(args[++i]);
    else if (args[i] === '--json') json = args[++i];
    else throw new Error(`load-report: unknown argument ${args[i]}`);
  }
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'index.html'))) throw new Error('load-report: dist/ has no build');
  const { server, url, stats } = await serveDir(dist, { compress: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const results = [];
  try {
    for (const profile of PROFILES.filter((p) => !only.length || only.includes(p.name))) {
      const all = [];
      for (let i = 0; i < runs; i++) {
        const r = await oneRun(browser, url, stats, profile);
        all.push(r);
        console.error(
          `load-report: ${profile.name} run ${i + 1}/${runs}: FCP ${ms(r.fcp)}, editable ${ms(r.editable)}, wasm ${ms(r.wasm)}, first run ${ms(r.firstRun)}, repeat ${ms(r.repeatFirstRun)}, transfer ${kb(r.transfer)} (server ${kb(r.server)}), repeat transfer ${kb(r.repeatTransfer)} (server ${kb(r.repeatServer)})`,
        );
      }
      const med = {};
      for (const k of Object.keys(all[0])) med[k] = median(all.map((r) => r[k]));
      results.push({ profile, runs: all, median: med });
    }
  } finally {
    await browser.close();
    await new Promise((ok) => server.close(ok));
  }
  if (json) writeFileSync(json, JSON.stringify(results, null, 2));

  console.log(`Median of ${runs} runs, served with brotli; times from navigation start.\n`);
  console.log('| profile | FCP | manifest editable | wasm downloaded | first run shown | repeat visit: first run shown | transfer (page) | transfer (server, with SW precache) | repeat transfer (page / server) |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { profile, median: m } of results) {
    console.log(
      `| ${profile.label} | ${ms(m.fcp)} | ${ms(m.editable)} | ${ms(m.wasm)} | ${ms(m.firstRun)} | ${ms(m.repeatFirstRun)} | ${kb(m.transfer)} | ${kb(m.server)} | ${kb(m.repeatTransfer)} / ${kb(m.repeatServer)} |`,
    );
  }
}

await main();
