/** What the editor shows besides the fields: documents, recipients, the armed field type, zoom, the current page. */
import type { FieldOrigin, FieldType } from '#shared/kernel/model.ts';
import { t } from '../i18n/i18n.ts';
import { clampBox, CORNERS, DEFAULT_SIZE, fromBox, overlaps, resizeBox, toBox, type Box, type Corner, type Size } from './author-geometry.ts';
import type { PdfPages } from './author-pdf-pages.ts';
import { temporaryId, type EditorField, type Store } from './author-store.ts';

export interface Recipient { key: string; name: string; colour: string }
export interface EditorDocument { id: string; name: string; pages: PdfPages | null; failed: boolean }

/** Distinct, dark enough for white text and a 3:1 outline on white. */
export const COLOURS = ['#1d4ed8', '#b91c1c', '#047857', '#7c3aed', '#b45309', '#be185d', '#0e7490', '#4d7c0f'];

export const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;
/** 100 % shows a point as a point of the screen (96 CSS px per inch, 72 pt per inch). */
export const PX_PER_PT = 96 / 72;

export class Editor {
  documents: EditorDocument[] = [];
  recipients: Recipient[] = [];
  active = '';
  armed: FieldType | null = null;
  /** A zoom factor, or null: the page's width fits the view. */
  zoom: number | null = null;
  fitWidth = 600;
  current = { documentId: '', page: 1 };
  preview: { id: string; box: Box } | null = null;
  /** The field (by key) or page to give the focus to once drawn. */
  focusRequest: string | null = null;
  focusPage: { documentId: string; page: number } | null = null;
  /** The page list is drawn (after the first page). */
  listReady = false;
  /** The corner Alt + arrow keys move. */
  corner: Corner = 'se';
  /** What the live region says (the corner chosen). */
  announcement = '';

  constructor(readonly store: Store, readonly origin: FieldOrigin) {}

  changed(): void { this.store.emit(); }

  colour(recipient: string): string {
    return this.recipients.find((r) => r.key === recipient)?.colour ?? '#475569';
  }

  nameOf(recipient: string): string {
    return this.recipients.find((r) => r.key === recipient)?.name ?? recipient;
  }

  size(documentId: string | null, page: number): Size {
    const doc = this.documents.find((d) => d.id === documentId) ?? this.documents[0];
    return doc?.pages?.sizes[page - 1] ?? { width: 612, height: 792 };
  }

  /** CSS pixels per point of a page at the current zoom. */
  scale(documentId: string | null, page: number): number {
    if (this.zoom !== null) return this.zoom * PX_PER_PT;
    return Math.min(1.5, this.fitWidth / this.size(documentId, page).width);
  }

  boxOf(field: EditorField): Box {
    if (this.preview?.id === field.id) return this.preview.box;
    return toBox(field, this.size(field.documentId, field.page));
  }

  /** A new field of `type` for the active recipient, centred on `at` (points from the page's top-left) or the page's centre. */
  place(type: FieldType, documentId: string, page: number, at?: { left: number; top: number }): EditorField {
    const size = this.size(documentId, page);
    const { w, h } = DEFAULT_SIZE[type] ?? { w: 120, h: 24 };
    const centre = at ?? { left: size.width / 2, top: size.height / 2 };
    const box = clampBox({ left: centre.left - w / 2, top: centre.top - h / 2, w, h }, size);
    const field: EditorField = {
      id: temporaryId(), documentId, recipient: this.active, type, page, origin: this.origin,
      ...fromBox(box, size, this.origin), required: type !== 'checkbox',
      // An attachment field needs a label (the signer is asked for the file by it): its type's name until the sender renames it
      label: type === 'attachment' ? t('author.type.attachment') : null, value: null, readOnly: false, showIf: null, validation: null,
    };
    this.store.add(field);
    return field;
  }

  /** Saves a field's new box (kept inside its page). */
  setBox(id: string, box: Box): void {
    const field = this.store.field(id);
    if (!field) return;
    const size = this.size(field.documentId, field.page);
    this.store.update(id, fromBox(clampBox(box, size), size, field.origin));
  }

  moveBy(id: string, dx: number, dy: number): void {
    const field = this.store.field(id);
    if (!field) return;
    const box = this.boxOf(field);
    this.setBox(id, { ...box, left: box.left + dx, top: box.top + dy });
  }

  /** Moves the field's active corner (Alt + arrow keys) by (dx, dy) points; the opposite corner stays. */
  resizeBy(id: string, dx: number, dy: number): void {
    const field = this.store.field(id);
    if (!field) return;
    this.setBox(id, resizeBox(this.boxOf(field), this.corner, dx, dy, this.size(field.documentId, field.page)));
  }

  /** The next corner for Alt + arrow keys (bottom-right, bottom-left, top-left, top-right), said to a screen reader. */
  nextCorner(): void {
    this.corner = CORNERS[(CORNERS.indexOf(this.corner) + 1) % CORNERS.length] ?? 'se';
    this.announcement = t('author.corner', { corner: this.corner });
    this.changed();
  }

  /** Puts a field on another page (dragged there): `box` in points from that page's top-left corner, kept on it. */
  moveTo(id: string, documentId: string, page: number, box: Box): void {
    const field = this.store.field(id);
    if (!field) return;
    const size = this.size(documentId, page);
    this.store.update(id, { documentId, page, ...fromBox(clampBox(box, size), size, field.origin) });
  }

  duplicate(id: string): void {
    const field = this.store.field(id);
    if (!field) return;
    const size = this.size(field.documentId, field.page);
    const box = this.boxOf(field);
    const copy = clampBox({ ...box, left: box.left + 12, top: box.top + 12 }, size);
    this.store.add({ ...field, id: temporaryId(), ...fromBox(copy, size, field.origin) });
  }

  /** Boxes of the other fields on the same page (for snapping). */
  neighbours(field: EditorField): Box[] {
    return this.store.fields.filter((f) => f.id !== field.id && f.documentId === field.documentId && f.page === field.page).map((f) => this.boxOf(f));
  }

  /** Each overlapping field's id with the ids it overlaps. */
  overlapping(): Map<string, string[]> {
    const found = new Map<string, string[]>();
    const fields = this.store.fields;
    for (const [i, a] of fields.entries()) {
      for (const b of fields.slice(i + 1)) {
        if (a.documentId !== b.documentId || a.page !== b.page || !overlaps(this.boxOf(a), this.boxOf(b))) continue;
        found.set(a.id, [...(found.get(a.id) ?? []), b.id]);
        found.set(b.id, [...(found.get(b.id) ?? []), a.id]);
      }
    }
    return found;
  }
}
