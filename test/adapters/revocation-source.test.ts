/**
 * HttpRevocationSource against a CA of the test's own over HTTP whose CRL's thisUpdate the test chooses: revocation
 * data for a seal must be issued at or after its signature timestamp, whatever the container's CRL cache holds.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpRevocationSource } from '#adapters/http/revocation-source.ts';
import { signRsaDigest } from '#adapters/local/key-file-signer.ts';
import { OID } from '#pdf/certificates.ts';
import { RevocationUnavailable } from '#pdf/dss.ts';
import { issueCertificate, issueCrl, type SigningKey } from '#pdf/pki.ts';

const signingKey = (key: KeyObject): SigningKey => ({ algorithm: 'rsa-sha256', signDigest: (digest) => Promise.resolve(signRsaDigest(key, digest)) });
const spki = (key: KeyObject): Uint8Array => createPublicKey(key).export({ type: 'spki', format: 'der' });
const thisUpdate = (crl: Uint8Array): Date => pkijs.CertificateRevocationList.fromBER(crl).thisUpdate.value;

let server: Server;
let root: Uint8Array;
let leaf: Uint8Array;
/** The thisUpdate of the next CRL the CA serves, and how many it served. */
let nextThisUpdate = new Date('2026-03-01T12:00:00Z');
let served = 0;

beforeAll(async () => {
  const rootKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const leafKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  server = createServer((_req, res) => {
    served++;
    void issueCrl({ issuer: root, key: signingKey(rootKey), thisUpdate: nextThisUpdate, nextUpdate: new Date(nextThisUpdate.getTime() + 86_400_000), number: served })
      .then((crl) => { res.writeHead(200, { 'content-type': 'application/pkix-crl' }); res.end(crl); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const crlUrl = `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}/root.crl`;
  const subject = (cn: string) => [[OID.commonName, cn], [OID.country, 'DE']] as const;
  root = await issueCertificate({ subject: subject('Test Root'), publicKey: spki(rootKey), profile: 'ca', key: signingKey(rootKey), validFrom: new Date('2026-01-01T00:00:00Z'), validDays: 3650 });
  leaf = await issueCertificate({ subject: subject('Test Seal'), publicKey: spki(leafKey), profile: 'seal', issuer: root, key: signingKey(rootKey), crlUrl, validFrom: new Date('2026-01-01T00:00:00Z'), validDays: 365 });
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
});
