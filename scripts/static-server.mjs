// A small static file server for dist/: used by the end-to-end tests (imported) and by
// `scripts/serve.sh --release` (run). Serves only files under its directory, with the
// content types a browser needs (application/wasm for streaming compilation).
//
//   node scripts/static-server.mjs DIR [PORT] [HOST]
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/**
 * Serves `dir` on `host:port` (port 0 picks a free one) under the URL path `base` (e.g.
 * `/sub/path/`, as a GitHub Pages project site is); resolves to { server, url }.
 */
export function serveDir(dir, { host = '127.0.0.1', port = 0, base = '/' } = {}) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const full = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (!full.startsWith(base)) throw new Error('outside base');
      const path = full.slice(base.length - 1);
      let file = resolve(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw new Error('outside root');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
      });
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
      ok({ server, url: `http://${host}:${bound}${base}` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir = 'dist', port = '8080', host = '127.0.0.1'] = process.argv.slice(2);
  const { url } = await serveDir(dir, { host, port: Number(port) });
  console.log(`podlab: serving ${resolve(dir)} at ${url} (Ctrl-C stops)`);
}
