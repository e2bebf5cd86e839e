/**
 * HttpRevocationSource against a CA of the test's own over HTTP whose CRL's thisUpdate the test chooses: revocation
 * data for a seal must be issued at or after its signature timestamp, whatever the container's CRL cache holds.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpRevocationSource } from '#shared/adapters/http/revocation-source.ts';
import { signRsaDigest } from '#shared/adapters/local/key-file-signer.ts';
import { OID } from '#shared/pki/certificates.ts';
import { RevocationUnavailable } from '#shared/pki/dss.ts';
import { issueCertificate, issueCrl, type SigningKey } from '#shared/pki/certificate-authority.ts';

const signingKey = (key: KeyObject): SigningKey => ({ algorithm: 'rsa-sha256', signDigest: (digest) => Promise.resolve(signRsaDigest(key, digest)) });
const spki = (key: KeyObject): Uint8Array => createPublicKey(key).export({ type: 'spki', format: 'der' });
const thisUpdate = (crl: Uint8Array): Date => pkijs.CertificateRevocationList.fromBER(crl).thisUpdate.value;

let server: Server;
let root: Uint8Array;
let leaf: Uint8Array;
/** A certificate whose issuer names an OCSP responder as well. */
let withOcsp: Uint8Array;
/** The thisUpdate of the next CRL the CA serves, and how many it served. */
let nextThisUpdate = new Date('2026-03-01T12:00:00Z');
let served = 0;
/** The producedAt of the OCSP responses the responder gives (unsigned: the source reads, validators verify). */
let producedAt = new Date('2026-03-01T12:00:00Z');

function ocspResponse(): Uint8Array {
  const single = new pkijs.SingleResponse({
    certID: new pkijs.CertID({ hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: '1.3.14.3.2.26' }), issuerNameHash: new asn1js.OctetString({ valueHex: new Uint8Array(20) }), issuerKeyHash: new asn1js.OctetString({ valueHex: new Uint8Array(20) }), serialNumber: new asn1js.Integer({ value: 1 }) }),
    certStatus: new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } }), // good
    thisUpdate: producedAt,
  });
  const data = new pkijs.ResponseData({ responderID: new asn1js.OctetString({ valueHex: new Uint8Array(20) }), producedAt, responses: [single] });
  const basic = new asn1js.Sequence({ value: [
    data.toSchema(true),
    new pkijs.AlgorithmIdentifier({ algorithmId: '1.2.840.113549.1.1.11' }).toSchema(),
    new asn1js.BitString({ valueHex: new Uint8Array(8) }),
  ] });
  const response = new pkijs.OCSPResponse({
    responseStatus: new asn1js.Enumerated({ value: 0 }),
    responseBytes: new pkijs.ResponseBytes({ responseType: '1.3.6.1.5.5.7.48.1.1', response: new asn1js.OctetString({ valueHex: basic.toBER(false) }) }),
  });
  return new Uint8Array(response.toSchema().toBER(false));
}

beforeAll(async () => {
  const rootKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const leafKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  server = createServer((req, res) => {
    if (req.url === '/ocsp') {
      req.resume();
      req.on('end', () => { res.writeHead(200, { 'content-type': 'application/ocsp-response' }); res.end(ocspResponse()); });
      return;
    }
    served++;
    void issueCrl({ issuer: root, key: signingKey(rootKey), thisUpdate: nextThisUpdate, nextUpdate: new Date(nextThisUpdate.getTime() + 86_400_000), number: served })
      .then((crl) => { res.writeHead(200, { 'content-type': 'application/pkix-crl' }); res.end(crl); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}`;
  const crlUrl = `${base}/root.crl`;
  const subject = (cn: string) => [[OID.commonName, cn], [OID.country, 'DE']] as const;
  root = await issueCertificate({ subject: subject('Test Root'), publicKey: spki(rootKey), profile: 'ca', key: signingKey(rootKey), validFrom: new Date('2026-01-01T00:00:00Z'), validDays: 3650 });
  leaf = await issueCertificate({ subject: subject('Test Seal'), publicKey: spki(leafKey), profile: 'seal', issuer: root, key: signingKey(rootKey), crlUrl, validFrom: new Date('2026-01-01T00:00:00Z'), validDays: 365 });
  withOcsp = await issueCertificate({ subject: subject('Test Seal (OCSP)'), publicKey: spki(leafKey), profile: 'seal', issuer: root, key: signingKey(rootKey), crlUrl, ocspUrl: `${base}/ocsp`, validFrom: new Date('2026-01-01T00:00:00Z'), validDays: 365 });
});
afterAll(() => { server.close(); });

describe('HttpRevocationSource: revocation data issued after the signature', () => {
  it('fetches the CRL again when the cached one predates `issuedAfter`, and keeps using the cache otherwise', async () => {
    const source = new HttpRevocationSource();
    served = 0;
    nextThisUpdate = new Date('2026-03-01T12:00:00Z');
    const first = await source.revocation(leaf, root);
    expect(thisUpdate(first.crls[0]!)).toEqual(nextThisUpdate);
    await source.revocation(leaf, root, { issuedAfter: new Date('2026-03-01T12:00:00Z') }); // issued at the very instant: enough
    expect(served).toBe(1);
    nextThisUpdate = new Date('2026-03-01T12:00:20Z');
    const fresh = await source.revocation(leaf, root, { issuedAfter: new Date('2026-03-01T12:00:11Z') });
    expect(served).toBe(2);
    expect(thisUpdate(fresh.crls[0]!).getTime()).toBeGreaterThanOrEqual(new Date('2026-03-01T12:00:11Z').getTime());
  });

  it("fails with a retryable RevocationUnavailable when the CA's newest CRL is older too (and no OCSP responder is named)", async () => {
    const source = new HttpRevocationSource();
    served = 0;
    nextThisUpdate = new Date('2026-03-01T12:00:00Z');
    const error = await source.revocation(leaf, root, { issuedAfter: new Date('2026-03-01T12:00:05Z') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RevocationUnavailable);
    expect(error).toMatchObject({ retryable: true, message: expect.stringMatching(/newest CRL \(issued 2026-03-01T12:00:00.000Z\) predates the signature/) as unknown });
  });

  it("asks the OCSP responder when the CA's newest CRL is older, and takes its answer only when produced at or after `issuedAfter`", async () => {
    const source = new HttpRevocationSource();
    nextThisUpdate = new Date('2026-03-01T12:00:00Z');
    const issuedAfter = new Date('2026-03-01T12:00:05Z');
    producedAt = new Date('2026-03-01T12:00:06Z');
    const fresh = await source.revocation(withOcsp, root, { issuedAfter });
    expect(fresh.crls).toEqual([]);
    expect(fresh.ocspResponses).toHaveLength(1);
    producedAt = new Date('2026-03-01T12:00:04Z');
    const error = await source.revocation(withOcsp, root, { issuedAfter }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RevocationUnavailable);
    expect(error).toMatchObject({ message: expect.stringMatching(/produced 2026-03-01T12:00:04.000Z, before the signature/) as unknown });
  });
});
