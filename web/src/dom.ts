/** A few DOM helpers: the pages are plain TypeScript, no framework. */
import { t } from './i18n/i18n.ts';

export type Child = Node | string | number | null | undefined | false | Child[];
type Handler = (event: never) => void;
export type Props = Record<string, string | number | boolean | null | undefined | Handler | Partial<CSSStyleDeclaration>>;

/** Creates an element: `on*` props become listeners, `class` the class list, `style` an object, booleans toggle attributes. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    else if (typeof value === 'object') Object.assign(el.style, value);
    else if (value === true) el.setAttribute(key, '');
    else if (key === 'class') el.className = String(value);
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

const main = () => document.getElementById('main') ?? document.body;

let screenCount = 0;
/**
 * Replaces the page content with a screen: sets the title and moves focus to its heading, so that screen
 * readers announce the change and keyboard users start at the top of the new content.
 */
export function showScreen(title: string, ...children: Child[]): HTMLElement {
  const screen = h('div', { class: 'screen', 'data-screen-id': String(++screenCount) }, ...children);
  main().replaceChildren(screen);
  document.title = t('page.title', { screen: title });
  const heading = screen.querySelector('h1');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
  window.scrollTo({ top: 0 });
  return screen;
}

/** A polite announcement for screen readers (status changes that are not focus moves). */
export function announce(message: string): void {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  window.setTimeout(() => { region.textContent = message; }, 50);
}

export const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** A message box: `role=alert` for errors (read at once), `role=status` for the rest. */
export function notice(kind: 'error' | 'info' | 'success', ...children: Child[]): HTMLElement {
  return h('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, ...children);
}

/** Sets (or clears) a button's busy state: disabled with a label while a request runs. */
export function busy(button: HTMLButtonElement, label: string | null): void {
  if (label !== null) {
    button.dataset.label ??= button.textContent;
    button.textContent = label;
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
  } else {
    button.textContent = button.dataset.label ?? button.textContent;
    delete button.dataset.label;
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
}

let idCounter = 0;
export const uid = (prefix: string) => `${prefix}-${String(++idCounter)}`;

/** A screen that says what is loading (the heading is for screen readers; the spinner and text for everyone). */
export function loadingScreen(title: string, text: string): void {
  showScreen(title, h('h1', { class: 'visually-hidden' }, text),
    h('p', { class: 'loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ` ${text}`));
}
