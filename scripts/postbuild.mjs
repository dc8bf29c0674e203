// Trunk's post-build hook (Trunk.toml [[hooks]]): finishes the build in Trunk's staging
// directory before it becomes dist/.
//
// 1. The service worker: public/sw.js with the list of every file of this build (Trunk's hashed
//    names included) and a version derived from their contents, written to sw.js. Nothing is
//    listed by hand.
// 2. Release builds only: a Content-Security-Policy <meta> in index.html that allows Trunk's
//    inline module loader by its SHA-256 hash (no 'unsafe-inline', no 'unsafe-eval'; WebAssembly
//    needs 'wasm-unsafe-eval'), and the same policy as a header line in csp.txt for hosts that
//    set headers (add frame-ancestors there: a <meta> policy cannot carry it).
//
//   node scripts/postbuild.mjs [DIR]   (DIR defaults to $TRUNK_STAGING_DIR, then dist)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR || join(root, 'dist');
const release = (process.env.TRUNK_PROFILE ?? 'release') === 'release';

/** Every file under `d`, as paths relative to `dir` with `/` separators. */
function files(d) {
  return readdirSync(d)
    .flatMap((name) => {
      const full = join(d, name);
      return statSync(full).isDirectory() ? files(full) : [relative(dir, full).split(sep).join('/')];
    })
    .sort();
}

/** The policy for the lab's page, given the hashes of its inline scripts. */
export function policy(scriptHashes) {
  return [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval' ${scriptHashes.map((h) => `'sha256-${h}'`).join(' ')}`.trim(),
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
  ].join('; ');
}

const indexPath = join(dir, 'index.html');
let html = readFileSync(indexPath, 'utf8');
if (release) {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) =>
    createHash('sha256').update(m[1], 'utf8').digest('base64'),
  );
  const csp = policy(hashes);
  html = html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
  html = html.replace(/<meta charset="utf-8" \/>/, (m) => `${m}\n    <meta http-equiv="Content-Security-Policy" content="${csp}" />`);
  if (!html.includes('Content-Security-Policy')) throw new Error('postbuild: index.html has no <meta charset="utf-8" />');
  writeFileSync(indexPath, html);
  writeFileSync(join(dir, 'csp.txt'), `Content-Security-Policy: ${csp}; frame-ancestors 'self'\n`);
}

// The service worker caches everything but itself; its version changes with any file.
const list = files(dir).filter((f) => f !== 'sw.js');
const version = createHash('sha256');
for (const f of list) version.update(f).update(readFileSync(join(dir, f)));
const precache = ['./', ...list.map((f) => `./${f}`)];
const template = readFileSync(join(root, 'public', 'sw.js'), 'utf8');
const sw = template
  .replace("const VERSION = 'dev';", `const VERSION = '${version.digest('hex').slice(0, 16)}';`)
  .replace('const PRECACHE = [];', `const PRECACHE = ${JSON.stringify(release ? precache : [], null, 2)};`);
if (sw === template) throw new Error('postbuild: public/sw.js lost its VERSION/PRECACHE lines');
writeFileSync(join(dir, 'sw.js'), sw);
console.log(`postbuild: sw.js precaches ${release ? precache.length : 0} URLs${release ? '; CSP set in index.html, csp.txt' : ''}`);
