/**
 * `<esign-author url="...">`: the sender's editor inside an integrator's page. It frames the editor URL and re-emits the
 * editor's messages as DOM events (`authoring.loaded`, `authoring.saved`, `authoring.sent`, `authoring.closed`,
 * `error`; the message is the event's `detail`), taking only messages from that frame and from the URL's origin.
 * Served as /esign-author.js on the signing host; include it with a script tag.
 */
class EsignAuthor extends HTMLElement {
  static readonly observedAttributes = ['url', 'title'];
  private readonly frame = document.createElement('iframe');

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = ':host{display:block;min-height:480px;height:80vh}iframe{border:0;width:100%;height:100%;display:block}';
    this.frame.setAttribute('title', this.getAttribute('title') ?? 'Document editor');
    root.append(style, this.frame);
  }

  private readonly receive = (event: MessageEvent) => {
    const url = this.getAttribute('url');
    if (!url || event.source !== this.frame.contentWindow) return;
    let origin: string;
    try {
      origin = new URL(url, window.location.href).origin;
    } catch {
      return;
    }
    const data = event.data as { source?: unknown; type?: unknown } | null;
    if (event.origin !== origin || data?.source !== 'esign' || typeof data.type !== 'string') return;
    this.dispatchEvent(new CustomEvent(data.type, { detail: data, bubbles: true, composed: true }));
  };

  connectedCallback(): void {
    window.addEventListener('message', this.receive);
    this.load();
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.receive);
  }

  attributeChangedCallback(name: string): void {
    if (name === 'title') this.frame.setAttribute('title', this.getAttribute('title') ?? 'Document editor');
    else if (this.isConnected) this.load();
  }

  private load(): void {
    const url = this.getAttribute('url');
    if (url && this.frame.getAttribute('src') !== url) this.frame.setAttribute('src', url);
  }
}

if (!customElements.get('esign-author')) customElements.define('esign-author', EsignAuthor);
