import type { Document, DocumentPages, PageGeometry } from '../kernel/model.ts';

/**
 * Page geometry lives beside each original's PDF, not in the envelope or template record (a 2,000-page document's
 * entries alone are about 110 KB, and a record holds at most 400 KB): the use cases that place, show or seal fields
 * read it for the documents they need and hand it to the domain.
 */

/** The pages of `document` among those read; a document whose pages were not read is a defect of the caller. */
export function pagesOf(pages: DocumentPages, document: Pick<Document, 'id'>): readonly PageGeometry[] {
  const found = pages.get(document.id);
  if (!found) throw new Error(`The page geometry of document ${document.id} was not read`);
  return found;
}

/** Every blob stored for a document: its PDF and, beside an original, its text index and page geometry. */
export const storedKeys = (document: Pick<Document, 'blobKey' | 'textIndexKey' | 'pagesKey'>): string[] =>
  [document.blobKey, document.textIndexKey, document.pagesKey].filter((key): key is string => typeof key === 'string' && key !== '');
