/**
 * Fields the signer sees but does not fill in (decision 17): read-only fields of their own, shown with their value,
 * and what signers before them entered, in place. Neither takes focus or counts as needing input; each carries
 * its words for screen readers in the page's text (no control to name).
 */
import type { PageGeometry, SigningContext, SigningField } from '../../api-types.ts';
import { h } from '../../dom.ts';
import { t } from '../../i18n/i18n.ts';
import { drawTypedSignature, paddingOf, SIGNATURE_FONTS, type SignatureFont } from '../fonts.ts';
import { checkArt, pt, textSizePt } from './field-view.ts';
import { labelOf, percentBox } from './model.ts';

export type CompletedField = SigningContext['completedFields'][number];

/** What a shown field holds, whoever entered it. */
interface Shown {
  field: Pick<SigningField, 'type' | 'page' | 'x' | 'y' | 'w' | 'h' | 'origin' | 'label'>;
  text: string | null;
  imageDataUrl: string | null;
  font: string | null;
  /** Who entered it (another signer), or null for a read-only value set by the sender. */
  by: string | null;
}

function content({ field, text, imageDataUrl, font }: Shown): HTMLElement | null {
  const pad = paddingOf(field.w, field.h);
  if (imageDataUrl) {
    const px = (pad / field.w) * 100;
    const py = (pad / field.h) * 100;
    return h('img', {
      alt: '', src: imageDataUrl, class: 'mark-image',
      style: { left: `${String(px)}%`, top: `${String(py)}%`, width: `${String(100 - 2 * px)}%`, height: `${String(100 - 2 * py)}%` },
    });
  }
  if (text === null) return null;
  if (field.type === 'checkbox') return text === 'true' ? checkArt(field) : null;
  if ((field.type === 'signature' || field.type === 'initial') && SIGNATURE_FONTS.includes(font as SignatureFont)) {
    const canvas = h('canvas', { class: 'mark-typed', 'aria-hidden': 'true', 'data-font': font ?? '' });
    void drawTypedSignature(canvas, text, font as SignatureFont, field.w, field.h);
    return canvas;
  }
  return h('span', { class: 'text-value', style: { fontSize: pt(textSizePt(field.h)), padding: pt(pad) } }, text);
}

/** The words for screen readers: the field's name, what it holds, and who entered it. */
function spoken({ field, text, imageDataUrl, by }: Shown): string {
  const name = labelOf(field) ?? t('field.shown.type', { type: field.type });
  const what = imageDataUrl ? t('field.value.drawn')
    : field.type === 'checkbox' ? t('field.shown.checked', { checked: text === 'true' ? 'yes' : 'no' })
    : text ?? '';
  return by === null ? t('field.shown.readOnly', { name, what }) : t('field.shown.completed', { name, what, signer: by });
}

function shownView(shown: Shown, page: PageGeometry, kind: 'read-only' | 'completed', id: string): HTMLElement {
  const p = percentBox(shown.field, page);
  const style = { left: `${String(p.left)}%`, top: `${String(p.top)}%`, width: `${String(p.width)}%`, height: `${String(p.height)}%` };
  const title = labelOf(shown.field);
  const inner = content(shown);
  const art = inner?.classList.contains('preview') ? inner : h('span', { class: 'preview' }, inner);
  art.setAttribute('aria-hidden', 'true');
  const checked = shown.field.type === 'checkbox' && shown.text === 'true';
  return h('div', {
    class: `field field-${shown.field.type} field-shown is-${kind}${checked ? ' is-checked' : ''}`, style, 'data-shown-id': id, ...(title ? { title } : {}),
  }, art, h('span', { class: 'visually-hidden' }, spoken(shown)));
}

/** A read-only field of this signer's, with the value the sender set. */
export function readOnlyView(field: SigningField, page: PageGeometry): HTMLElement {
  return shownView({ field, text: field.value ?? null, imageDataUrl: null, font: null, by: null }, page, 'read-only', field.id);
}

/** Another signer's entry, as they left it. */
export function completedView(field: CompletedField, page: PageGeometry): HTMLElement {
  return shownView({ field, text: field.textValue, imageDataUrl: field.imageDataUrl, font: field.fontLabel, by: field.signerName }, page, 'completed', field.id);
}
