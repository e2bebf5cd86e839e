/**
 * The signing page with a PDF over DIRECT_DOWNLOAD_MAX_BYTES (decision 18): its document request answers 302 to a
 * presigned URL of the documents bucket, which the page follows (CSP connect-src, the bucket's CORS) and renders.
 */
import { PDFDocument } from 'pdf-lib';
import { MAX_INLINE_BODY_BYTES } from '#shared/http/aws-limits.ts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addImagePage } from '#test/support/pdfs.ts';
import { passGates } from '#test/support/signing.ts';
import { contractPdf, sendEnvelope, unique, useBrowser } from './support.ts';

let bearer: string;
let page: Page;
let errors: string[];

useBrowser({ width: 1024, height: 800 }, 'browser large document', (session) => { ({ page, bearer, errors } = session); });

describe('the signing page with a large PDF', { timeout: 120_000 }, () => {
  it('follows the 302 to the presigned URL and shows the document with its field', async () => {
    const doc = await PDFDocument.load(await contractPdf({ pages: 1 }));
    addImagePage(doc, 1500); // about 6.7 MB of incompressible image: over the inline limit, and over a request's 4 MB
    const pdf = await doc.save();
    expect(pdf.byteLength).toBeGreaterThan(MAX_INLINE_BODY_BYTES);
    const { envelope, links, tokens } = await sendEnvelope(bearer, {
      tenantId: 'browser', subject: 'Large plan', signers: [{ name: 'Lia Berg', email: unique('large'), authMethod: 'none' }],
      fields: [{ signerIndex: 0, type: 'signature', page: 2, x: 72, y: 120, w: 200, h: 50 }],
    }, pdf);
    await passGates(tokens[0] ?? '', null);
    const fromBucket = page.waitForResponse((response) => response.url().includes('X-Amz-Signature='));
    await page.goto(links[0] ?? '');
    const presigned = await fromBucket;
    expect(presigned.status()).toBe(200);
    expect(new URL(presigned.url()).origin).not.toBe(new URL(page.url()).origin);
    await page.locator('.sheet[data-page="1"].is-rendered').waitFor();
    await page.locator(`[data-field-id="${envelope.fields[0]?.id ?? ''}"]`).waitFor();
    expect(errors).toEqual([]);
  });
});
