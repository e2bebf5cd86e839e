/**
 * The verifier on certificate lifetimes and revocation (ETSI EN 319 102-1): a seal whose certificate has expired
 * since, with and without long-term validation data; a signer without revocation data; embedded OCSP responses (good,
 * revoked before and after the signature timestamp, unknown). The certificates come from the service's own CA tools
 * with a short validity; the timestamps from the local TSA; verification "later" is the verifier's time input.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTimestampAuthority } from '#shared/adapters/http/timestamp-authority.ts';
import { toPem } from '#shared/pki/certificates.ts';
import type { RevocationData } from '#shared/ports/services.ts';
import { sealPdf, type PadesLevel } from '#shared/sealing/seal.ts';
import { hex, sha256 } from '#shared/verify/verify-chain.ts';
import { verifyPdf } from '#shared/verify/verify-document.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { shortLivedCa, type ShortLivedCa } from '#test/support/short-lived-ca.ts';
import { opensslVerifyAt, tempFile } from './signature-tools.ts';

const DAY = 86_400_000;
const SEAL = 'O=Verification Tests, CN=Short-Lived Seal';
let pki: TestPki;
let ca: ShortLivedCa;
let anchors: { service: string[]; configured: string[] };
let original: Uint8Array;
beforeAll(async () => {
  pki = await startTestPki();
  // valid since yesterday, expires tomorrow: sealed now, verified a month from now it has expired
  ca = await shortLivedCa({ validFrom: new Date(Date.now() - DAY), validDays: 2 });
  anchors = { service: [hex(await sha256(pki.pki.rootDer))], configured: [hex(await sha256(ca.rootDer))] };
  original = await makePdf({ pages: 1 });
}, 60_000);
afterAll(async () => { await pki.pki.stop(); });

/** Sealed by the short-lived certificate at `level`, its revocation data what `answer` gives. */
async function seal(level: PadesLevel, answer: () => Promise<RevocationData> = async () => ({ crls: [await ca.crl()], ocspResponses: [] }), by = ca): Promise<Uint8Array> {
  const evidence = { level, timestamps: new HttpTimestampAuthority(pki.pki.tsaUrl), revocation: by.revocation(answer) };
  return (await sealPdf(original, pki.input(level, { signer: by.signer, evidence }))).bytes;
}

const later = () => new Date(Date.now() + 30 * DAY);
const reasons = (report: Awaited<ReturnType<typeof verifyPdf>>) => JSON.stringify(report.signatures.map((s) => s.reasons));

describe('a seal whose certificate has expired since', () => {
  it('B-LTA (timestamped while valid, revocation data after the timestamp, archive timestamp over it): TOTAL_PASSED; openssl agrees the certificate is valid at sealing and expired a month later', async () => {
    const bytes = await seal('B-LTA');
    const now = await verifyPdf(bytes, { anchors });
    expect(now.indication, reasons(now)).toBe('TOTAL_PASSED');
    const report = await verifyPdf(bytes, { anchors, now: later() });
    expect(report.indication, reasons(report)).toBe('TOTAL_PASSED');
    const [signature, stamp] = report.signatures;
    expect(signature).toMatchObject({ kind: 'signature', padesLevel: 'B-LTA', trust: 'configured', signerCommonName: 'Short-Lived Seal', validationTime: signature?.timestampTime });
    expect(signature?.revocationEmbedded).toContainEqual(expect.objectContaining({ certificate: SEAL, source: 'crl', status: 'good' }));
    expect(signature?.warnings.join(' ')).toMatch(/has expired since/);
    expect(stamp).toMatchObject({ kind: 'document-timestamp', indication: 'TOTAL_PASSED' });
    expect(opensslVerifyAt(ca.sealDer, [await ca.crl()], toPem(ca.rootDer), new Date()).ok).toBe(true);
    const month = later();
    const crlThen = await ca.crl({ thisUpdate: new Date(month.getTime() - DAY) });
    expect(opensslVerifyAt(ca.sealDer, [crlThen], toPem(ca.rootDer), month).output).toMatch(/certificate has expired/);
  });

  it('B-LT passes too (the signature timestamp is the proof of existence, the CRL issued after it shows no revocation)', async () => {
    const report = await verifyPdf(await seal('B-LT'), { anchors, now: later() });
    expect(report.indication, reasons(report)).toBe('TOTAL_PASSED');
    expect(report.signatures[0]?.padesLevel).toBe('B-LT');
  });

  it('B-LT with a CRL issued before the signature timestamp: INDETERMINATE OUT_OF_BOUNDS_NO_POE (nothing shows it was not revoked after)', async () => {
    const stale = async () => ({ crls: [await ca.crl({ thisUpdate: new Date(Date.now() - 3_600_000) })], ocspResponses: [] });
    const bytes = await seal('B-LT', stale);
    expect((await verifyPdf(bytes, { anchors })).indication).toBe('TOTAL_PASSED'); // still valid: any good status counts
    const report = await verifyPdf(bytes, { anchors, now: later() });
    expect(report).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'OUT_OF_BOUNDS_NO_POE' });
  });

  it.each(['B-B', 'B-T'] as const)('%s (no revocation data): TRY_LATER now, INDETERMINATE OUT_OF_BOUNDS_NO_POE once expired', async (level) => {
    const bytes = await seal(level);
    expect(await verifyPdf(bytes, { anchors })).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'TRY_LATER' });
    const report = await verifyPdf(bytes, { anchors, now: later() });
    expect(report).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'OUT_OF_BOUNDS_NO_POE' });
    expect(report.signatures[0]).toMatchObject({ padesLevel: level, intact: true, trust: 'configured' });
    expect(report.signatures[0]?.reasons[0]).toMatch(level === 'B-B' ? /no timestamp proves/ : /no revocation data issued after the timestamp/);
  });

  it('a certificate already expired when the seal was timestamped: OUT_OF_BOUNDS_NO_POE even at B-LTA', async () => {
    const expired = await shortLivedCa({ validFrom: new Date(Date.now() - 10 * DAY), validDays: 2 });
    const bytes = await seal('B-LTA', async () => ({ crls: [await expired.crl()], ocspResponses: [] }), expired);
    const report = await verifyPdf(bytes, { anchors: { ...anchors, configured: [hex(await sha256(expired.rootDer))] } });
    expect(report).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'OUT_OF_BOUNDS_NO_POE' });
    expect(report.signatures[0]?.reasons[0]).toMatch(/had expired when the signature was timestamped/);
  });
});

describe('OCSP responses in the DSS', () => {
  const made: Uint8Array[] = [];
  const ocsp = (...args: Parameters<ShortLivedCa['ocsp']>) => async () => {
    made.push(await ca.ocsp(...args));
    return { crls: [], ocspResponses: made.slice(-1) };
  };
  /** What openssl reads in the response the seal embedded last. */
  const opensslSays = () => execFileSync('openssl', ['ocsp', '-respin', tempFile(made.at(-1)!, 'response.der'), '-resp_text', '-noverify'], { encoding: 'utf8' });

  it.each([false, true])('a good response signed by the CA (its certificate in the response: %s): B-LT, TOTAL_PASSED, revocationEmbedded names the seal certificate', async (includeCertificate) => {
    const report = await verifyPdf(await seal('B-LT', ocsp({ status: 'good' }, { includeCertificate })), { anchors });
    expect(report.indication, reasons(report)).toBe('TOTAL_PASSED');
    expect(report.signatures[0]?.padesLevel).toBe('B-LT');
    expect(report.signatures[0]?.revocationEmbedded).toContainEqual(expect.objectContaining({ certificate: SEAL, source: 'ocsp', status: 'good', revokedAt: null }));
    expect(opensslSays()).toContain('Cert Status: good');
  });

  it('revoked before the signature: TOTAL_FAILED REVOKED, with the revocation time', async () => {
    const at = new Date(Date.now() - 3_600_000);
    const report = await verifyPdf(await seal('B-LTA', ocsp({ status: 'revoked', at })), { anchors });
    expect(report).toMatchObject({ indication: 'TOTAL_FAILED', subIndication: 'REVOKED' });
    const finding = report.signatures[0]?.revocationEmbedded.find((f) => f.certificate === SEAL);
    expect(finding, JSON.stringify(finding)).toMatchObject({ source: 'ocsp', status: 'revoked', revokedAt: at.toISOString() });
    expect(report.signatures[0]?.reasons[0]).toMatch(/Short-Lived Seal was revoked on .* before the signature was timestamped/);
    expect(opensslSays()).toMatch(/Cert Status: revoked\s+Revocation Time:/);
  });

  it('revoked after the signature timestamp: the timestamp proves the signature came first, TOTAL_PASSED', async () => {
    const report = await verifyPdf(await seal('B-LTA', ocsp({ status: 'revoked', at: new Date(Date.now() + 3_600_000) })), { anchors });
    expect(report.indication, reasons(report)).toBe('TOTAL_PASSED');
    expect(report.signatures[0]?.revocationEmbedded).toContainEqual(expect.objectContaining({ certificate: SEAL, status: 'revoked' }));
  });

  it('status unknown says nothing: no finding for the seal certificate, INDETERMINATE TRY_LATER', async () => {
    const report = await verifyPdf(await seal('B-LT', ocsp({ status: 'unknown' })), { anchors });
    expect(report).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'TRY_LATER' });
    expect(report.signatures[0]?.revocationEmbedded.filter((f) => f.certificate === SEAL)).toEqual([]);
    expect(report.signatures[0]?.padesLevel).toBe('B-T');
    expect(opensslSays()).toContain('Cert Status: unknown');
  });
});
