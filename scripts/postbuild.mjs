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
// 3. The boot shell of index.html: the default starter in its textarea.
// 4. The embeds' static preview (docs/embedding.md): embed.html, the iframe snippets' preview
//    page, from public/embed.html (with its own CSP in release builds), and preview/, one small
//    JSON file per starter (src/starters.rs and src/starters/*.yaml) and per exercise
//    (content/exercises/*.toml): {title, file, manifest}, the text the lab starts from, so a
//    preview fetches only the one it shows.
//
//   node scripts/postbuild.mjs [DIR]   (DIR defaults to $TRUNK_STAGING_DIR, then dist)
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

/** The policy for the lab's page, given the hashes of its inline scripts (`wasm: false`: a
 * page that compiles no WebAssembly, the preview page). */
export function policy(scriptHashes, { wasm = true } = {}) {
  return [
    "default-src 'self'",
    `script-src 'self'${wasm ? " 'wasm-unsafe-eval'" : ''} ${scriptHashes.map((h) => `'sha256-${h}'`).join(' ')}`.trim(),
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

/** A TOML basic string's body (`"..."` or `"""..."""` without the quotes) as text. */
function tomlString(body) {
  return body.replace(/\\(?:[ \t]*\r?\n\s*|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))/g, (m, u4, u8, c) => {
    if (u4 || u8) return String.fromCodePoint(parseInt(u4 || u8, 16));
    if (c === undefined) return ''; // a line-ending backslash joins the lines
    const simple = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\', e: '\x1b' }[c];
    if (simple === undefined) throw new Error(`postbuild: unknown TOML escape \\${c}`);
    return simple;
  });
}

/** The starters (src/starters.rs) and exercises (content/exercises/) a preview shows. */
export function previews() {
  const out = { starter: {}, exercise: {} };
  const rust = readFileSync(join(root, 'src', 'starters.rs'), 'utf8');
  const starter =
    /Starter \{\s*id: "([^"]+)",\s*title: "((?:[^"\\]|\\.)*)",\s*file: "([^"]+)",[\s\S]*?yaml: include_str!\("([^"]+)"\)/g;
  for (const [, id, title, file, path] of rust.matchAll(starter)) {
    out.starter[id] = { title: JSON.parse(`"${title}"`), file, manifest: readFileSync(join(root, 'src', path), 'utf8') };
  }
  const yamls = readdirSync(join(root, 'src', 'starters')).filter((f) => f.endsWith('.yaml'));
  if (Object.keys(out.starter).length !== yamls.length) {
    throw new Error(`postbuild: read ${Object.keys(out.starter).length} starters in src/starters.rs, there are ${yamls.length} files`);
  }
  const dirEx = join(root, 'content', 'exercises');
  for (const name of readdirSync(dirEx).filter((f) => f.endsWith('.toml')).sort()) {
    const toml = readFileSync(join(dirEx, name), 'utf8');
    const id = /^id = "((?:[^"\\]|\\.)*)"/m.exec(toml);
    const title = /^title = "((?:[^"\\]|\\.)*)"/m.exec(toml);
    // A newline right after the opening quotes is not part of the string.
    const manifest = /^manifest = """\r?\n?((?:[^"\\]|\\[\s\S]|"(?!""))*)"""/m.exec(toml);
    if (!id || !title || !manifest) throw new Error(`postbuild: ${name} has no id, title or manifest = """..."""`);
    out.exercise[tomlString(id[1])] = { title: `Exercise: ${tomlString(title[1])}`, file: 'exercise.yaml', manifest: tomlString(manifest[1]) };
  }
  return out;
}

for (const [kind, entries] of Object.entries(previews())) {
  mkdirSync(join(dir, 'preview', kind), { recursive: true });
  for (const [id, data] of Object.entries(entries)) writeFileSync(join(dir, 'preview', kind, `${id}.json`), JSON.stringify(data));
}
let embedHtml = readFileSync(join(root, 'public', 'embed.html'), 'utf8');
if (release) {
  // The preview page has no inline script and compiles no WebAssembly.
  if (/<script(?![^>]*\bsrc=)/.test(embedHtml) || /\sstyle=/.test(embedHtml)) throw new Error('postbuild: embed.html must stay without inline scripts and styles');
  embedHtml = embedHtml.replace(/<meta charset="utf-8" \/>/, (m) => `${m}\n    <meta http-equiv="Content-Security-Policy" content="${policy([], { wasm: false })}" />`);
}
writeFileSync(join(dir, 'embed.html'), embedHtml);

const indexPath = join(dir, 'index.html');
let html = readFileSync(indexPath, 'utf8');
// The boot shell's textarea shows the default starter (the first of src/starters.rs) while the
// lab loads.
const [defaultStarter] = Object.values(previews().starter);
const escaped = defaultStarter.manifest.replace(/&/g, '&amp;').replace(/</g, '&lt;');
if (html.includes('PODLAB_DEFAULT_STARTER')) html = html.replace('PODLAB_DEFAULT_STARTER', () => escaped);
else if (!html.includes('id="boot-manifest"')) throw new Error('postbuild: index.html has no boot shell (#boot-manifest)');
writeFileSync(indexPath, html);
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
console.log(
  `postbuild: previews in embed.html, preview/; sw.js precaches ${release ? precache.length : 0} URLs${release ? '; CSP set in index.html, embed.html, csp.txt' : ''}`,
);
