import { ValidationError, type FieldErrors } from './errors.ts';
import type { Document, Field, PageBox } from './model.ts';

/** The field's rectangle in PDF user space (bottom-left origin), whichever origin it was placed with. */
export function toPdfRect(field: Pick<Field, 'x' | 'y' | 'w' | 'h' | 'origin'>, box: PageBox): PageBox {
  if (field.origin === 'bottom-left') return { x: field.x, y: field.y, width: field.w, height: field.h };
  // Top-left: measured from the crop box's top-left corner, downwards (DECISIONS 2).
  return { x: box.x + field.x, y: box.y + box.height - field.y - field.h, width: field.w, height: field.h };
}

const EPSILON = 1e-6;

/** Problems with placing `field` on `document` (DECISIONS 25), keyed by `${path}.<attribute>`. */
export function placementErrors(field: Omit<Field, 'id' | 'documentId' | 'signerId'>, document: Document, path: string): FieldErrors {
  const at = (attribute: string) => (path ? `${path}.${attribute}` : attribute);
  if (field.w <= 0 || field.h <= 0) {
    return { [at(field.w <= 0 ? 'w' : 'h')]: ['must be greater than 0'] };
  }
  const page = document.pages[field.page - 1];
  if (!page) return { [at('page')]: [`must be between 1 and the document's page count (${String(document.pageCount)})`] };
  const rect = toPdfRect(field, page.box);
  const { box } = page;
  const inside =
    rect.x >= box.x - EPSILON &&
    rect.y >= box.y - EPSILON &&
    rect.x + rect.width <= box.x + box.width + EPSILON &&
    rect.y + rect.height <= box.y + box.height + EPSILON;
  if (inside) return {};
  const size = `${String(box.width)} x ${String(box.height)} pt`;
  return { [at('x')]: [`the field box must lie inside page ${String(field.page)} (${size}, origin ${field.origin})`] };
}

export function assertNoErrors(errors: FieldErrors, summary: string): void {
  if (Object.keys(errors).length > 0) throw new ValidationError(summary, errors);
}
