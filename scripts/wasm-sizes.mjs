// Which crates the web app's wasm code comes from: reads a wasm file that still has its
// `name` section (cargo's output before wasm-bindgen/wasm-opt strip it) and sums the size of
// each function body by the crate in its (mangled) symbol name. Used by size-report.sh.
//
//   node scripts/wasm-sizes.mjs target/wasm32-unknown-unknown/release/podlab-web.wasm [top] [crate]
// With a crate name, sums that crate's functions by module instead. With `--functions` as the
// crate, lists the `top` biggest functions themselves (demangled, without the hash), and
// with `--generics`, sums the functions by their name with every generic argument removed
// (`<T as Trait>::f` → `<_>::f`): how much one generic costs over all its instances. Rust's
// default (legacy) symbol names carry no generic arguments; a build with
// `RUSTFLAGS="-C symbol-mangling-version=v0"` (in its own CARGO_TARGET_DIR) has them, and
// `c++filt` demangles such names, which this script prints as they are.
import { readFileSync } from 'node:fs';

const [file, topArg, only] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/wasm-sizes.mjs FILE.wasm [top] [crate | --functions | --generics]');
  process.exit(2);
}
const bytes = readFileSync(file);
let pos = 8;
const u32 = () => {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return result;
  }
};
const str = () => {
  const n = u32();
  const s = bytes.toString('utf8', pos, pos + n);
  pos += n;
  return s;
};

let importedFunctions = 0;
const bodies = [];
const names = new Map();
let dataBytes = 0;
const sections = {};
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = u32();
  const end = pos + size;
  const label = id === 0 ? `custom:${(() => { const p = pos; const s = str(); pos = p; return s; })()}` : `section ${id}`;
  sections[label] = (sections[label] ?? 0) + size;
  if (id === 2) {
    // Imports: count the functions, they come first in the function index space.
    const n = u32();
    for (let i = 0; i < n; i++) {
      str();
      str();
      const kind = bytes[pos++];
      if (kind === 0) {
        u32();
        importedFunctions++;
      } else if (kind === 1) {
        pos++;
        const flags = u32();
        u32();
        if (flags & 1) u32();
      } else if (kind === 2) {
        const flags = u32();
        u32();
        if (flags & 1) u32();
      } else if (kind === 3) {
        pos += 2;
      } else {
        u32();
      }
    }
  } else if (id === 10) {
    const n = u32();
    for (let i = 0; i < n; i++) {
      const len = u32();
      bodies.push(len);
      pos += len;
    }
  } else if (id === 11) {
    dataBytes = size;
  } else if (id === 0) {
    const name = str();
    if (name === 'name') {
      while (pos < end) {
        const sub = bytes[pos++];
        const subSize = u32();
        const subEnd = pos + subSize;
        if (sub === 1) {
          const n = u32();
          for (let i = 0; i < n; i++) {
            const index = u32();
            names.set(index, str());
          }
        }
        pos = subEnd;
      }
    }
  }
  pos = end;
}
if (names.size === 0) {
  console.error(`${file} has no name section: give the wasm cargo built, before wasm-opt`);
  process.exit(1);
}

/** The length-prefixed parts of a legacy-mangled symbol's body (`13podlab_engine6object...`). */
function mangledParts(body) {
  const out = [];
  let rest = body;
  for (;;) {
    const d = /^(\d+)/.exec(rest);
    if (!d) break;
    const n = Number(d[1]);
    out.push(rest.slice(d[1].length, d[1].length + n));
    rest = rest.slice(d[1].length + n);
  }
  return out;
}

/** The path segments of a symbol: legacy-mangled (`_ZN13podlab_engine6object...E`) or plain. */
function segments(symbol) {
  const m = /^_ZN(.*)E$/.exec(symbol);
  if (!m) return symbol.replace(/^</, '').split(/ as |[<>]/)[0].split('::');
  const out = mangledParts(m[1]);
  // `<T as Trait>::f` impls: attribute to T's path.
  if (out[0]?.startsWith('_$LT$')) {
    return out[0].slice(5).split(/\$u20\$as\$u20\$|\$GT\$|\$LT\$/)[0].split('..');
  }
  return out.filter((s) => !/^h[0-9a-f]{16}$/.test(s));
}

/** The crate a symbol belongs to: the first path segment. */
function crateOf(symbol) {
  return segments(symbol)[0] || '(other)';
}

/** A readable form of a legacy-mangled symbol: `<T as Trait>::f`, without the hash. */
function demangle(symbol) {
  const m = /^_ZN(.*)E$/.exec(symbol);
  if (!m) return symbol;
  const parts = mangledParts(m[1]);
  const escapes = { LT: '<', GT: '>', RF: '&', BP: '*', C: ',', SP: '@' };
  return parts
    .filter((s) => !/^h[0-9a-f]{16}$/.test(s))
    .join('::')
    .replace(/^_\$/, '$')
    .replace(/\$([A-Z]{1,2})\$/g, (all, e) => escapes[e] ?? all)
    .replace(/\$u([0-9a-f]{2})\$/g, (_, h) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\.\./g, '::');
}

/** A name with every generic argument list replaced by `<_>`. */
function withoutGenerics(name) {
  let out = '';
  let depth = 0;
  for (const ch of name) {
    if (ch === '<') {
      if (depth++ === 0) out += '<_>';
    } else if (ch === '>' && depth > 0) {
      depth--;
    } else if (depth === 0) {
      out += ch;
    }
  }
  return out;
}

const byCrate = new Map();
let total = 0;
const listing = only === '--functions' || only === '--generics';
bodies.forEach((len, i) => {
  const name = names.get(i + importedFunctions) ?? '(unnamed)';
  let crate = crateOf(name);
  if (listing) {
    crate = only === '--functions' ? demangle(name) : withoutGenerics(demangle(name));
    if (only === '--functions') crate = `${crate} #${i}`;
  } else if (only) {
    if (crate !== only) return;
    crate = segments(name).slice(0, 2).join('::');
  }
  byCrate.set(crate, (byCrate.get(crate) ?? 0) + len);
  total += len;
});
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`code ${kb(total)} in ${bodies.length} functions, data ${kb(dataBytes)}`);
const top = Number(topArg ?? 15);
for (const [crate, size] of [...byCrate].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${kb(size).padStart(10)}  ${((100 * size) / total).toFixed(1).padStart(5)}%  ${crate}`);
}
