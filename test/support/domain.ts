import { randomUUID } from 'node:crypto';
import type { Ctx, SignerInput } from '#shared/envelopes/envelope.ts';
import { ValidationError } from '#shared/kernel/errors.ts';
import type { Document, PageGeometry } from '#shared/kernel/model.ts';

let counter = 0;

/** A deterministic context: fixed time (movable), sequential ids. */
export function testCtx(now = new Date('2026-01-01T00:00:00.000Z')): Ctx {
  return { now, nextId: () => `00000000-0000-7000-8000-${String(++counter).padStart(12, '0')}`, meta: { ip: '203.0.113.7', userAgent: 'vitest' } };
}

export const signerInput = (email: string, routingOrder = 1, extra: Partial<SignerInput> = {}): SignerInput => ({
  name: email.split('@')[0] ?? email, email, phone: null, routingOrder, authMethod: 'email_otp', ...extra,
});

/** A US Letter document record with `pages` pages (their geometry: letterPages). */
export function letterDocument(pages = 1): Document {
  return {
    id: randomUUID(), kind: 'original', mimeType: 'application/pdf', sha256: 'a'.repeat(64), pageCount: pages, sizeBytes: 1000,
    blobKey: 'original/x/y.pdf', pagesKey: 'original/x/y.pages.json', createdAt: '2026-01-01T00:00:00.000Z', retentionUntil: null, purgeStatus: 'active',
  };
}

/** The pages of US Letter documents, `pageCount` each, by document id. */
export function letterPages(...documents: Document[]): Map<string, PageGeometry[]> {
  return new Map(documents.map((d) => [d.id, Array.from({ length: d.pageCount }, () => ({ box: { x: 0, y: 0, width: 612, height: 792 }, rotate: 0 as const }))]));
}

/** `documents` with their pages, for a new envelope's input. */
export const withPages = (...documents: Document[]) => ({ documents, pages: letterPages(...documents) });

/** The field errors of the ValidationError `fn` throws (anything else fails the test). */
export function errorsOf(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  throw new Error('expected a ValidationError');
}
