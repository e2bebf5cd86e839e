/**
 * An uploaded SVG logo made safe to show anywhere: an allow-list of drawing elements and presentation attributes
 * (sanitize-html over htmlparser2, which needs no DOM: DOMPurify would need jsdom, several megabytes, over an API
 * function's bundle budget). Removed: scripts, event handlers, <foreignObject>, <image>, <a>, animation, filters,
 * and every reference outside the document (href/xlink:href other than `#id`, url() other than `url(#id)`, @import).
 * Loaded only by the branding routes, when a logo arrives (shared/console/branding-logo.ts).
 */
import sanitizeHtml from 'sanitize-html';

const SHAPES = ['svg', 'g', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'title', 'desc'];
const PAINT = ['defs', 'linearGradient', 'radialGradient', 'stop', 'clipPath', 'mask', 'symbol', 'use', 'style'];

const PRESENTATION = [
  'id', 'class', 'style', 'transform', 'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin',
  'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity', 'opacity', 'clip-path', 'clip-rule', 'mask', 'display',
  'visibility', 'color', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'letter-spacing',
  'x', 'y', 'x1', 'y1', 'x2', 'y2', 'dx', 'dy', 'width', 'height', 'd', 'points', 'r', 'rx', 'ry', 'cx', 'cy', 'fx', 'fy', 'offset',
  'stop-color', 'stop-opacity', 'gradientUnits', 'gradientTransform', 'spreadMethod', 'clipPathUnits', 'maskUnits', 'maskContentUnits',
  'viewBox', 'preserveAspectRatio', 'version', 'xmlns', 'xmlns:xlink', 'xml:space', 'href', 'xlink:href', 'role', 'aria-label', 'aria-hidden',
];

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** A reference inside the document (`#id`), the only kind kept. */
const LOCAL_REF = /^#[\w.:-]+$/;

/** url(...) anywhere in a value, with what it points at. */
const URL_REF = /url\s*\(\s*(['"]?)(.*?)\1\s*\)/gi;

/** CSS (a style attribute or a <style> element) that reaches outside, or could: refused whole. */
export function unsafeCss(css: string): boolean {
  if (/@import|expression\s*\(|javascript:|behavior\s*:|-moz-binding|\\|<|&/i.test(css)) return true;
  for (const match of css.matchAll(URL_REF)) if (!LOCAL_REF.test((match[2] ?? '').trim())) return true;
  return false;
}

/** The parser lower-cases names (so `ONLOAD` and `Script` are caught like the rest); SVG's mixed-case names are restored. */
const CAMEL = new Map([
  ...PAINT, ...PRESENTATION,
].filter((name) => name !== name.toLowerCase()).map((name) => [name.toLowerCase(), name]));

const camel = (name: string) => CAMEL.get(name) ?? name;

/** The attributes kept: links only to `#id`, no value that reaches outside through url() or a script scheme. */
function cleanAttributes(attributes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(attributes).map(([name, value]) => [camel(name), value] as const).filter(([name, value]) => {
    if (name === 'href' || name === 'xlink:href') return LOCAL_REF.test(value.trim());
    if (name === 'xmlns') return value === SVG_NS;
    if (name === 'xmlns:xlink') return value === XLINK_NS;
    return !unsafeCss(value);
  }));
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...SHAPES, ...PAINT],
  allowedAttributes: { '*': PRESENTATION },
  // Anything outside the allow-list goes, and these go with their text
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'foreignobject', 'foreignObject', 'textarea', 'noscript', 'iframe'],
  allowedSchemes: [],
  allowedSchemesAppliedToAttributes: [],
  allowProtocolRelative: false,
  allowVulnerableTags: true,
  parser: { lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true, decodeEntities: true },
  transformTags: {
    // Served as image/svg+xml, the file is parsed as XML: it needs its namespaces declared
    svg: (_tag, attribs) => ({ tagName: 'svg', attribs: { ...cleanAttributes(attribs), xmlns: SVG_NS, 'xmlns:xlink': XLINK_NS } }),
    '*': (tagName, attribs) => ({ tagName: camel(tagName), attribs: cleanAttributes(attribs) }),
  },
  // A <style> element is kept only when its CSS stays inside the document
  exclusiveFilter: (frame) => frame.tag === 'style' && unsafeCss(frame.text),
  selfClosing: [],
};

/** The sanitised SVG, or null when nothing drawable is left (not an SVG at all). */
export function sanitizeSvg(source: string): string | null {
  // A DTD's internal subset (entities) would leave its tail behind as text: the prologue goes first, whole
  const body = source.replace(/^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>)?/i, '');
  const clean = sanitizeHtml(body, OPTIONS).trim();
  return /^<svg[\s>]/.test(clean) && clean.endsWith('</svg>') ? clean : null;
}
