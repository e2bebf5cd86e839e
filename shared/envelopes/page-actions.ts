import { Gone } from '../kernel/errors.ts';
import type { Document, DocumentPages, PageGeometry } from '../kernel/model.ts';
import type { BlobToStage } from './blob-actions.ts';
import type { CoreDeps, Carriers } from '../signing/signing-context.ts';

/**
 * A document's page geometry is a JSON sidecar beside its PDF (like its text index), not part of the envelope or
 * template record: the record is read on every request and holds at most 400 KB, while 2,000 pages alone take about
 * 110 KB. Only the use cases that place, show or seal fields read it, for the documents they need. It is written with
 * the PDF, before the commit that names both (staged, or deleted when the commit is refused), so a committed document
 * always has its pages.
 */

interface StoredPages { v: 1; pages: PageGeometry[] }

/** Where an original's pages are stored: beside its PDF. */
export const pagesKeyOf = (blobKey: string) => blobKey.replace(/\.pdf$/, '.pages.json');

/** The sidecar blob of `pages`, to stage with the PDF. */
export function pagesBlob(key: string, pages: readonly PageGeometry[]): BlobToStage {
  const stored: StoredPages = { v: 1, pages: pages.map(({ box, rotate }) => ({ box, rotate })) };
  return { key, bytes: new TextEncoder().encode(JSON.stringify(stored)), contentType: 'application/json' };
}

const parsed = new WeakMap<Uint8Array, PageGeometry[]>();

/** The stored bytes of a sidecar, read back (once per bytes: a bulk send makes every row from the same). */
export function parsePages(bytes: Uint8Array): PageGeometry[] {
  const known = parsed.get(bytes);
  if (known) return known;
  const { pages } = JSON.parse(new TextDecoder().decode(bytes)) as StoredPages;
  parsed.set(bytes, pages);
  return pages;
}

/** The page geometry of `documents` (originals), read in parallel; 410 for one whose pages are no longer stored. */
export async function readPages(deps: Pick<CoreDeps & Carriers, 'blobs'>, documents: readonly Document[]): Promise<Map<string, PageGeometry[]>> {
  const entries = await Promise.all(documents.map(async (document): Promise<[string, PageGeometry[]]> => {
    const bytes = document.pagesKey ? await deps.blobs.get(document.pagesKey) : undefined;
    if (!bytes) throw new Gone('The document is no longer stored', {}, 'document_purged');
    return [document.id, parsePages(bytes)];
  }));
  return new Map(entries);
}

/** `readPages` that reads each document once (its pages never change), for a decision that may run again. */
export function pageReader(deps: Pick<CoreDeps & Carriers, 'blobs'>): (documents: readonly Document[]) => Promise<DocumentPages> {
  const read = new Map<string, readonly PageGeometry[]>();
  return async (documents) => {
    const missing = documents.filter((d) => !read.has(d.id));
    for (const [id, pages] of await readPages(deps, missing)) read.set(id, pages);
    return read;
  };
}
