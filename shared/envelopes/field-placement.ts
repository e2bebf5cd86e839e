import { ValidationError, type FieldErrors } from '../kernel/errors.ts';
import type { Field, PageBox, PageGeometry } from '../kernel/model.ts';

/**
 * Field coordinates are measured on the page as a viewer shows it: its visible area (crop box), turned by
 * /Rotate, with the origin at the bottom-left corner (default) or the top-left (decision 2).
 */
export function displayedSize(page: PageGeometry): { width: number; height: number } {
  const turned = page.rotate === 90 || page.rotate === 270;
  return turned ? { width: page.box.height, height: page.box.width } : { width: page.box.width, height: page.box.height };
}

type Placement = Pick<Field, 'x' | 'y' | 'w' | 'h' | 'origin'>;

/** The field's rectangle in PDF user space (what the sealer draws into), whatever the origin and rotation. */
export function toPdfRect(field: Placement, page: PageGeometry): PageBox {
  const shown = displayedSize(page);
  const dx = field.x;
  const dy = field.origin === 'top-left' ? shown.height - field.y - field.h : field.y;
  const { x: cx, y: cy, width: W, height: H } = page.box;
  switch (page.rotate) {
    case 0:
      return { x: cx + dx, y: cy + dy, width: field.w, height: field.h };
    case 90: // shown turned clockwise: the user-space left edge is at the top
      return { x: cx + W - dy - field.h, y: cy + dx, width: field.h, height: field.w };
    case 180:
      return { x: cx + W - dx - field.w, y: cy + H - dy - field.h, width: field.w, height: field.h };
    case 270: // shown turned counter-clockwise: the user-space left edge is at the bottom
      return { x: cx + dy, y: cy + H - dx - field.w, width: field.h, height: field.w };
  }
}

const EPSILON = 1e-6;

/** Problems with placing `field` on a document of these pages (positive size, an existing page, the box inside the page as shown), keyed by `${path}.<attribute>`. */
export function placementErrors(field: Omit<Field, 'id' | 'documentId' | 'signerId'>, pages: readonly PageGeometry[], path: string): FieldErrors {
  const at = (attribute: string) => (path ? `${path}.${attribute}` : attribute);
  if (field.w <= 0 || field.h <= 0) {
    return { [at(field.w <= 0 ? 'w' : 'h')]: ['must be greater than 0'] };
  }
  const page = pages[field.page - 1];
  if (!page) return { [at('page')]: [`must be between 1 and the document's page count (${String(pages.length)})`] };
  const shown = displayedSize(page);
  const inside = field.x >= -EPSILON && field.y >= -EPSILON && field.x + field.w <= shown.width + EPSILON && field.y + field.h <= shown.height + EPSILON;
  if (inside) return {};
  const size = `${String(shown.width)} x ${String(shown.height)} pt`;
  return { [at('x')]: [`the field box must lie inside page ${String(field.page)} (${size} as shown, origin ${field.origin})`] };
}

export function assertNoErrors(errors: FieldErrors, summary: string): void {
  if (Object.keys(errors).length > 0) throw new ValidationError(summary, errors);
}
