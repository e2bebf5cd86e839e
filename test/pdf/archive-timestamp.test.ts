/**
 * Archive renewal at the PDF layer, against the local CA and timestamp authority: the renewed file keeps the sealed
 * one as an exact prefix, adds validation data for the last document timestamp and one new document timestamp, and
 * every validator accepts it.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpRevocationSource } from '#shared/adapters/http/revocation-source.ts';
import { HttpTimestampAuthority } from '#shared/adapters/http/timestamp-authority.ts';
import { archiveTimestampOf, renewArchiveTimestamp } from '#shared/sealing/archive-timestamp.ts';
import { sealPdf } from '#shared/sealing/seal.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { allSignatures, opensslCmsVerify, opensslTsVerify, pdfsig, qpdfCheck, startsWith } from './signature-tools.ts';

const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

let started: TestPki;
beforeAll(async () => { started = await startTestPki(); });
afterAll(async () => { await started.pki.stop(); });

describe('renewArchiveTimestamp', () => {
  it('appends the last timestamp\'s validation data and one document timestamp; the sealed file stays an exact prefix', async () => {
    const { bytes: sealed } = await sealPdf(await makePdf({ pages: 1 }), started.input('B-LTA'));
    const before = await archiveTimestampOf(sealed);
    expect(before).toBeDefined();
    const services = { timestamps: new HttpTimestampAuthority(started.pki.tsaUrl), revocation: new HttpRevocationSource() };
    const { bytes, timestamp } = await renewArchiveTimestamp(sealed, services);

    expect(startsWith(bytes, sealed)).toBe(true);
    const all = allSignatures(bytes);
    expect(all.map((s) => s.subFilter)).toEqual(['ETSI.CAdES.detached', 'ETSI.RFC3161', 'ETSI.RFC3161']);
    const [seal, , renewal] = all;
    expect(renewal!.content.length + renewal!.cms.length).toBeGreaterThan(sealed.length); // it covers the whole sealed file
    expect(opensslTsVerify(renewal!.cms, sha256(renewal!.content), started.pki.rootPem)).toMatchObject({ ok: true });
    expect(opensslCmsVerify(seal!.cms, seal!.content, started.pki.rootPem)).toMatchObject({ ok: true });
    const report = pdfsig(bytes);
    expect(report).toContain('Signature is Valid.');
    expect(report.split('Signature #3')[1]).toContain('Total document signed');
    expect(qpdfCheck(bytes).status).toBe(0);

    const after = await archiveTimestampOf(bytes);
    expect(Buffer.from(after!.token).equals(Buffer.from(timestamp.token))).toBe(true);
    expect(after!.genTime.getTime()).toBeGreaterThanOrEqual(before!.genTime.getTime());
    expect(after!.validUntil).toEqual(timestamp.validUntil);
  });

  it('refuses a file with no document timestamp (below B-LTA)', async () => {
    const { bytes } = await sealPdf(await makePdf({ pages: 1 }), started.input('B-LT'));
    expect(await archiveTimestampOf(bytes)).toBeUndefined();
    const services = { timestamps: new HttpTimestampAuthority(started.pki.tsaUrl), revocation: new HttpRevocationSource() };
    await expect(renewArchiveTimestamp(bytes, services)).rejects.toThrow(/no document timestamp/);
  });
});
