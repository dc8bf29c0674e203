// A small static file server for dist/: used by the end-to-end tests (imported) and by
// `scripts/serve.sh --release` (run). Serves only files under its directory, with the
// content types a browser needs (application/wasm for streaming compilation).
//
// With `compress: true` (`--br` when run) it serves as a static host does: text and wasm
// files brotli-compressed (quality 11, compressed once when the server starts, then from
// memory) to clients that accept `br`, with an ETag (answering a matching If-None-Match with
// 304) and `Vary: Accept-Encoding`. `stats` counts the requests and body bytes sent, which
// includes what a service worker fetches (the load report reads it).
//
//   node scripts/static-server.mjs [--br] DIR [PORT] [HOST]
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

// What a static host compresses (images other than SVG are compressed already).
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.svg', '.json', '.webmanifest', '.txt']);

const brotli = promisify(brotliCompress);

/** Every file under `d` (absolute paths). */
async function walk(d) {
  const out = [];
  for (const e of await readdir(d, { withFileTypes: true })) {
    const full = join(d, e.name);
    if (e.isDirectory()) out.push(...(await walk(full)));
    else out.push(full);
  }
  return out;
}

/** file → { body, br, etag } for every compressible file under `root`. */
async function precompress(root) {
  const cache = new Map();
  for (const file of await walk(root)) {
    if (!COMPRESSIBLE.has(extname(file))) continue;
    const body = await readFile(file);
    const br = await brotli(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 20)}"`;
    cache.set(file, { body, br, etag });
  }
  return cache;
}

/**
 * Serves `dir` on `host:port` (port 0 picks a free one) under the URL path `base` (e.g.
 * `/sub/path/`, as a GitHub Pages project site is); resolves to { server, url, stats }.
 * `compress: true` serves brotli and ETags as a static host does (see the top of the file).
 */
export async function serveDir(dir, { host = '127.0.0.1', port = 0, base = '/', compress = false } = {}) {
  const root = resolve(dir);
  const stats = { requests: 0, bytes: 0, notModified: 0 };
  const cache = compress ? await precompress(root) : null;
  const server = createServer(async (req, res) => {
    stats.requests += 1;
    try {
      const full = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (!full.startsWith(base)) throw new Error('outside base');
      const path = full.slice(base.length - 1);
      let file = resolve(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw new Error('outside root');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      const hit = cache?.get(file);
      if (hit) {
        const br = /\bbr\b/.test(req.headers['accept-encoding'] ?? '');
        const etag = br ? hit.etag.replace(/"$/, '-br"') : hit.etag;
        const headers = { 'content-type': type, 'cache-control': 'no-cache', etag, vary: 'Accept-Encoding' };
        if (req.headers['if-none-match'] === etag) {
          stats.notModified += 1;
          res.writeHead(304, headers);
          res.end();
          return;
        }
        const body = br ? hit.br : hit.body;
        if (br) headers['content-encoding'] = 'br';
        headers['content-length'] = body.length;
        res.writeHead(200, headers);
        if (req.method !== 'HEAD') stats.bytes += body.length;
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' });
      if (req.method !== 'HEAD') stats.bytes += body.length;
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('not found\n');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const { port: bound } = server.address();
      ok({ server, url: `http://${host}:${bound}${base}`, stats });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const compress = args[0] === '--br';
  const [dir = 'dist', port = '8080', host = '127.0.0.1'] = compress ? args.slice(1) : args;
  const { url } = await serveDir(dir, { host, port: Number(port), compress });
  console.log(`podlab: serving ${resolve(dir)} at ${url}${compress ? ' with brotli' : ''} (Ctrl-C stops)`);
}
