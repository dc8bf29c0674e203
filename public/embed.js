// <podlab-embed>: a podlab lab in any page, as one tag (docs/embedding.md has every option).
//
//   <script type="module" src="https://example.org/podlab/embed.js"></script>
//   <podlab-embed starter="forbidden" panels="editor,timeline,detail" height-auto></podlab-embed>
//
// Until the lab loads, the element is a static preview: the manifest the lab will run,
// coloured like the lab's editor, and a Run in podlab button. It costs this file and one small
// preview/<kind>/<id>.json (scripts/postbuild.mjs). The lab (the WebAssembly) loads in an iframe
// on Run in podlab (load="click", the default), when the preview scrolls into view
// (load="visible"), or at once without a preview (load="eager").
// Events: podlab-ready, -resize, -step, -quiz-answered, -exercise-completed (event.detail is the
// lab's message); element.send({type: 'goto', step: 3}) drives the lab (loading it first).
// With the attribute `navigate` (embed.html, the iframe snippets' page) the options come from
// the page's URL and Run in podlab opens the lab in the same frame.
const SCRIPT_URL = import.meta.url;
const OPTIONS = ['manifest', 'starter', 'cluster', 'panels', 'phase', 'step', 'theme', 'quiz', 'exercise', 'session'];
const FLAGS = ['autoplay', 'readonly'];
// src/starters.rs: default_starter(), what the lab runs when nothing names a manifest.
const DEFAULT_STARTER = 'pod';

// ---- The preview's text: the manifest the lab will run --------------------------------------

const fetched = new Map();
/** `preview/<kind>/<id>.json` beside the lab: {title, file, manifest}; one request per file. */
function previewFile(base, kind, id) {
  const url = new URL(`preview/${kind}/${encodeURIComponent(id)}.json`, base).href;
  if (!fetched.has(url)) fetched.set(url, fetch(url).then((r) => (r.ok ? r.json() : Promise.reject(r.status))));
  return fetched.get(url);
}

/** A permalink's payload (`#v1:` + raw DEFLATE + base64url JSON, src/share.rs). */
async function fromLink(hash) {
  const bin = Uint8Array.from(atob(hash.slice(4).replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const json = await new Response(new Blob([bin]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
  const wire = JSON.parse(json);
  if (typeof wire.m !== 'string') throw new Error('no manifest');
  return { title: wire.x ? 'Exercise' : 'Shared lab', file: wire.f || 'manifest.yaml', manifest: wire.m };
}

// ---- YAML colours: the token classes of the lab's editor (src/highlight.rs) ------------------

const esc = (s) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const tok = (cls, s) => (s ? `<span class="${cls}">${esc(s)}</span>` : '');
const LITERAL = /^(?:[-+]?(?:\d+\.?\d*|\.\d+|0x[\da-f]+|0o[0-7]+|\.inf)|true|false|null|~|\.nan)$/i;

/** What follows a key or a dash: [html, opens a block scalar]. */
function value(s, flow = false) {
  let html = '';
  let block = false;
  while (s) {
    let m = /^[ \t]+/.exec(s) || /^#.*/.exec(s) || /^"(?:[^"\\]|\\.)*"?|^'(?:[^']|'')*'?/.exec(s);
    let cls = m && (m[0][0] === '#' ? 't-com' : /^\s/.test(m[0]) ? '' : 't-str');
    if (!m && (m = /^[|>][-+\d]*/.exec(s))) (cls = 't-punct'), (block = true);
    else if (!m && (m = /^[&*!][^\s,\]}]*/.exec(s))) cls = 't-meta';
    else if (!m && (m = /^(?:[{}[\],]|:(?=\s|$))/.exec(s))) (cls = 't-punct'), (flow ||= '{['.includes(m[0]));
    else if (!m) {
      // A plain scalar: up to a comment, or a flow indicator inside a flow collection.
      m = (flow ? /^(?:[^,\]}:#]|:(?!\s|$)|(?<!\s)#)+/ : /^(?:[^#]|(?<!\s)#)+/).exec(s);
      const word = m[0].trimEnd();
      cls = flow && /^\s*:/.test(s.slice(m[0].length)) ? 't-key' : LITERAL.test(word) ? 't-lit' : 't-plain';
      m = [word || m[0]];
    }
    html += cls ? tok(cls, m[0]) : esc(m[0]);
    s = s.slice(m[0].length);
  }
  return [html, block];
}

/** The manifest as one HTML string per line. */
export function highlight(text) {
  let parent = -1; // the indentation of the line that opened a block scalar, while inside it
  return text.split('\n').map((line) => {
    const indent = line.length - line.replace(/^ +/, '').length;
    if (parent >= 0 && (!line.trim() || indent > parent)) return esc(line.slice(0, indent)) + tok('t-str', line.slice(indent));
    parent = -1;
    let html;
    let block;
    const doc = /^(?:---|\.\.\.)(?=\s|$)/.exec(line);
    if (doc) {
      [html, block] = value(line.slice(3));
      html = tok('t-doc', doc[0]) + html;
    } else {
      const lead = /^ *(?:-(?= |$) *)*/.exec(line)[0];
      let rest = line.slice(lead.length);
      let head = esc(lead).replace(/-/g, '<span class="t-punct">-</span>');
      const key = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s{[&*!|>#%@`'"](?:[^#]|(?<! )#)*?)(?=:(?:[ \t]|$))/.exec(rest);
      if (key && rest[0] !== '#') {
        head += tok('t-key', key[0]) + tok('t-punct', ':');
        rest = rest.slice(key[0].length + 1);
      }
      [html, block] = value(rest);
      html = head + html;
    }
    if (block) parent = indent;
    return html;
  });
}

// ---- Looks: the lab's panel, editor and button, light and dark (style/main.css) --------------

const LIGHT =
  '--panel:#fff;--text:#1b2430;--muted:#4a5667;--border:#cfd7e2;--accent:#1f4fbf;--accent-text:#fff;--code-bg:#eef2f7;' +
  '--t-key:#1c4fb8;--t-str:#1d6b2f;--t-lit:#8b3aa6;--t-com:#5c6675;--t-punct:#5a4a00;--t-meta:#9a3f00;--t-doc:#b3261e;color-scheme:light';
const DARK =
  '--panel:#18202a;--text:#e3e9f1;--muted:#a9b5c4;--border:#334154;--accent:#86abff;--accent-text:#0b1220;--code-bg:#0e1319;' +
  '--t-key:#8cb4ff;--t-str:#8fd9a1;--t-lit:#e2a5f5;--t-com:#9aa6b5;--t-punct:#e8d48a;--t-meta:#ffb27a;--t-doc:#ff8f87;color-scheme:dark';
const CSS = `
:host{display:block;--mono:ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,Consolas,monospace;${LIGHT}}
:host([theme=dark]){${DARK}}
@media (prefers-color-scheme:dark){:host(:not([theme=light])){${DARK}}}
.card{display:flex;flex-direction:column;gap:.6rem;padding:.8rem 1rem;background:var(--panel);color:var(--text);
 font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;box-sizing:border-box}
:host([navigate]) .card{height:100vh}
.head{display:flex;flex-wrap:wrap;gap:.2rem .7rem;align-items:baseline;margin:0}
.title{font-weight:650}
.file{margin-left:auto;font:.85rem var(--mono);color:var(--muted)}
.code{display:grid;
 grid-template-columns:auto minmax(0,1fr);max-height:24rem;overflow:auto;border:1px solid var(--border);
 border-radius:8px;background:var(--code-bg);font:14px/21px var(--mono)}
:host([navigate]) .code{flex:1;max-height:none}
.ln,pre{margin:0;padding:10px 0}
.ln{position:sticky;left:0;padding:10px .5rem 10px .4rem;min-width:3rem;box-sizing:border-box;text-align:right;
 color:var(--muted);background:var(--code-bg);border-right:1px solid var(--border);white-space:pre;user-select:none}
pre{padding-left:10px;padding-right:10px;font:inherit;white-space:pre}
.foot{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:center}
button{font:inherit;font-weight:600;font-size:.95rem;line-height:1.2;padding:.45rem .9rem;min-height:2.25rem;border-radius:6px;cursor:pointer;
 border:1px solid var(--accent);background:var(--accent);color:var(--accent-text)}
button:hover{filter:brightness(1.12)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.note{color:var(--muted);font-size:.875rem}
.t-key{color:var(--t-key)}.t-str{color:var(--t-str)}.t-lit{color:var(--t-lit)}.t-com{color:var(--t-com);font-style:italic}
.t-punct{color:var(--t-punct)}.t-meta{color:var(--t-meta)}.t-doc{color:var(--t-doc);font-weight:700}`;
let sheet;

// ---- The element ------------------------------------------------------------------------------

class PodlabEmbed extends HTMLElement {
  static get observedAttributes() {
    return ['src', 'height', 'height-auto', 'title', 'permalink', ...OPTIONS, ...FLAGS];
  }

  connectedCallback() {
    if (this.hasAttribute('navigate') && !this.navigated) {
      // embed.html: the options are the page's own query and fragment.
      this.navigated = true;
      for (const [k, v] of new URLSearchParams(location.search)) {
        if ([...OPTIONS, ...FLAGS, 'load'].includes(k)) this.setAttribute(k, v);
      }
      if (location.hash) this.setAttribute('permalink', location.hash);
      document.body.style.margin = '0';
    }
    this.onMessage ||= (event) => this.receive(event);
    window.addEventListener('message', this.onMessage);
    const load = this.getAttribute('load');
    if (this.frame || load === 'eager') this.activate();
    else {
      this.render();
      if (load === 'visible' && !this.observer) {
        this.observer = new IntersectionObserver((seen) => seen.some((e) => e.isIntersecting) && this.activate(), {
          rootMargin: '0px 0px 150px 0px',
        });
        this.observer.observe(this);
      }
    }
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.onMessage);
  }

  attributeChangedCallback() {
    if (this.frame) this.update();
    else if (this.shadowRoot) this.render();
  }

  /** The lab's URL for the element's attributes. */
  url() {
    if (this.hasAttribute('navigate')) {
      // This page's query as it is written, without `load`, with `embed`.
      const url = new URL('./', location.href);
      const pairs = location.search.slice(1).split('&').filter((p) => p && !/^load(=|$)/.test(p));
      url.search = (pairs.some((p) => /^embed(=|$)/.test(p)) ? pairs : ['embed', ...pairs]).join('&');
      url.hash = location.hash;
      return url;
    }
    const url = new URL(this.getAttribute('src') || './', SCRIPT_URL);
    const q = new URLSearchParams();
    q.set('embed', '');
    for (const name of OPTIONS) {
      const value = this.getAttribute(name);
      if (value !== null && value !== '') q.set(name, value);
    }
    for (const name of FLAGS) if (this.hasAttribute(name)) q.set(name, '');
    // Let the lab accept commands from this page (send()).
    q.set('origin', window.location.origin);
    url.search = q.toString().replace(/=(&|$)/g, '$1');
    url.hash = this.getAttribute('permalink') || '';
    return url;
  }

  /** Where the lab's files are (the preview files are beside it). */
  base() {
    return this.hasAttribute('navigate') ? new URL('./', location.href) : new URL(this.getAttribute('src') || './', SCRIPT_URL);
  }

  /** {title, file, manifest} the lab will start from, as the lab chooses it (src/ui/mod.rs). */
  async source() {
    const link = this.getAttribute('permalink') || '';
    if (link.startsWith('#v1:')) return fromLink(link);
    const manifest = this.getAttribute('manifest');
    if (manifest) return { title: '', file: 'manifest.yaml', manifest };
    const exercise = this.getAttribute('exercise');
    if (exercise) return previewFile(this.base(), 'exercise', exercise);
    return previewFile(this.base(), 'starter', this.getAttribute('starter') || DEFAULT_STARTER);
  }

  /** Draws the preview (the shadow tree; the iframe, once there, is its slotted child). */
  async render() {
    if (!this.shadowRoot) {
      const root = this.attachShadow({ mode: 'open' });
      if (!sheet) (sheet = new CSSStyleSheet()).replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
      root.innerHTML = `<div class="card" part="preview"><p class="head"><span class="title"></span><span class="file"></span></p><div class="code" role="region" tabindex="0">
<div class="ln" aria-hidden="true"></div><pre><code></code></pre></div><div class="foot">
<button type="button">Run in podlab</button><span class="note">Runs this manifest in a simulated
Kubernetes cluster, in your browser.</span></div></div><slot></slot>`;
      root.querySelector('button').addEventListener('click', () => this.activate(true));
    }
    const root = this.shadowRoot;
    const ticket = (this.ticket = (this.ticket || 0) + 1);
    const [title, file, code, ln, region, button] = ['.title', '.file', 'code', '.ln', '.code', 'button'].map((s) =>
      root.querySelector(s),
    );
    if (!button) return; // the lab has taken the preview's place
    let data;
    try {
      data = await this.source();
    } catch {
      data = { title: '', file: '', manifest: null };
    }
    if (ticket !== this.ticket) return; // attributes changed meanwhile
    const name = this.getAttribute('title') || data.title || 'a Kubernetes lab';
    title.textContent = name;
    file.textContent = data.file;
    // The visible text first in the name (WCAG 2.5.3), then which lab it runs.
    button.setAttribute('aria-label', `Run in podlab: ${name.replace(/^podlab:\s*/i, '')}`);
    region.setAttribute('aria-label', `Manifest ${data.file}`.trim());
    const lines = data.manifest === null ? null : highlight(data.manifest.replace(/\n$/, ''));
    code.innerHTML = lines ? lines.join('\n') : 'The manifest is shown when the lab runs.';
    ln.textContent = lines ? lines.map((_, i) => i + 1).join('\n') : '';
    this.dataset.previewed = '';
  }

  /** Loads the lab: in an iframe that takes the preview's place, or (embed.html) in this frame. */
  activate(user = false) {
    if (this.frame) return;
    this.observer?.disconnect();
    if (this.hasAttribute('navigate')) {
      location.replace(this.url().href);
      return;
    }
    const card = this.shadowRoot?.querySelector('.card');
    const previewHeight = card?.getBoundingClientRect().height;
    this.frame = document.createElement('iframe');
    if (!card) this.frame.setAttribute('loading', 'lazy');
    this.frame.style.cssText = 'display:block;width:100%;border:0;';
    if (previewHeight) this.frame.style.height = `${Math.max(320, Math.ceil(previewHeight))}px`;
    this.appendChild(this.frame);
    card?.remove();
    this.update();
    if (user) this.frame.focus();
  }

  update() {
    const url = this.url();
    this.origin = url.origin;
    if (this.frame.src !== url.href) {
      this.frame.src = url.href;
      this.ready = false;
    }
    this.frame.title = this.getAttribute('title') || 'podlab: a Kubernetes learning lab';
    if (!this.hasAttribute('height-auto')) this.frame.style.height = this.getAttribute('height') || '640px';
    else if (!this.frame.style.height) this.frame.style.height = '480px';
  }

  receive(event) {
    if (!this.frame || event.source !== this.frame.contentWindow || event.origin !== this.origin) return;
    const data = event.data;
    if (!data || data.source !== 'podlab' || typeof data.type !== 'string') return;
    if (data.type === 'resize' && this.hasAttribute('height-auto') && Number.isFinite(data.height)) {
      this.frame.style.height = `${Math.max(120, Math.ceil(data.height))}px`;
    }
    if (data.type === 'ready') {
      this.ready = true;
      for (const message of this.queue?.splice(0) ?? []) this.send(message);
    }
    this.dispatchEvent(new CustomEvent(`podlab-${data.type}`, { detail: data, bubbles: true }));
  }

  /** Sends a command to the lab: {type:'goto', step}, {type:'load', manifest}, {type:'play'}, {type:'pause'}. */
  send(message) {
    if (this.ready) this.frame.contentWindow?.postMessage(message, this.origin);
    else {
      (this.queue ||= []).push(message);
      this.activate();
    }
  }
}

if (!customElements.get('podlab-embed')) customElements.define('podlab-embed', PodlabEmbed);
