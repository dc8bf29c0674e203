// <podlab-embed>: a podlab lab inside any page, as one tag.
//
//   <script type="module" src="https://example.org/podlab/embed.js"></script>
//   <podlab-embed starter="forbidden" panels="editor,timeline,detail" height-auto></podlab-embed>
//
// Attributes: src (the podlab page; default: where this script is), manifest (inline text),
// starter, cluster, panels, phase, step, autoplay, readonly, theme, quiz, exercise, height
// (fixed CSS height), height-auto (follow the lab's own height), title.
// The element re-dispatches the lab's messages as DOM events: `podlab-ready`, `podlab-resize`,
// `podlab-step`, `podlab-quiz-answered`, `podlab-exercise-completed` (the message is
// `event.detail`); `element.send({type: 'goto', step: 3})` drives the lab.
const SCRIPT_URL = import.meta.url;
const OPTIONS = ['manifest', 'starter', 'cluster', 'panels', 'phase', 'step', 'theme', 'quiz', 'exercise'];
const FLAGS = ['autoplay', 'readonly'];

class PodlabEmbed extends HTMLElement {
  static get observedAttributes() {
    return ['src', 'height', 'height-auto', 'title', ...OPTIONS, ...FLAGS];
  }

  connectedCallback() {
    if (!this.frame) {
      this.frame = document.createElement('iframe');
      this.frame.setAttribute('loading', 'lazy');
      this.frame.style.cssText = 'display:block;width:100%;border:0;';
      this.onMessage = (event) => this.receive(event);
      this.appendChild(this.frame);
    }
    window.addEventListener('message', this.onMessage);
    this.update();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.onMessage);
  }

  attributeChangedCallback() {
    if (this.frame) this.update();
  }

  /** The lab's URL for the element's attributes. */
  url() {
    const base = new URL(this.getAttribute('src') || './', SCRIPT_URL);
    const url = new URL(base);
    url.hash = '';
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
    return url;
  }

  update() {
    const url = this.url();
    this.origin = url.origin;
    if (this.frame.src !== url.href) this.frame.src = url.href;
    this.frame.title = this.getAttribute('title') || 'podlab: a Kubernetes learning lab';
    if (!this.hasAttribute('height-auto')) this.frame.style.height = this.getAttribute('height') || '640px';
    else if (!this.frame.style.height) this.frame.style.height = '480px';
  }

  receive(event) {
    if (event.source !== this.frame.contentWindow || event.origin !== this.origin) return;
    const data = event.data;
    if (!data || data.source !== 'podlab' || typeof data.type !== 'string') return;
    if (data.type === 'resize' && this.hasAttribute('height-auto') && Number.isFinite(data.height)) {
      this.frame.style.height = `${Math.max(120, Math.ceil(data.height))}px`;
    }
    this.dispatchEvent(new CustomEvent(`podlab-${data.type}`, { detail: data, bubbles: true }));
  }

  /** Sends a command to the lab: {type:'goto', step}, {type:'load', manifest}, {type:'play'}, {type:'pause'}. */
  send(message) {
    this.frame.contentWindow?.postMessage(message, this.origin);
  }
}

if (!customElements.get('podlab-embed')) customElements.define('podlab-embed', PodlabEmbed);
