/**
 * The DSS at its own layer: what collectValidationMaterial asks the revocation source for (our chain strictly, earlier
 * signers' certificates best effort, all issued after the signature), and addDss never storing an entry twice.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { signRsaDigest } from '#shared/adapters/local/key-file-signer.ts';
import type { RevocationSource } from '#shared/ports/services.ts';
import { OID } from '#shared/pki/certificates.ts';
import { addDss, collectValidationMaterial, RevocationUnavailable } from '#shared/pki/dss.ts';
import { issueCertificate, type SigningKey } from '#shared/pki/certificate-authority.ts';
import { makePdf } from '#test/support/pdfs.ts';

const signingKey = (key: KeyObject): SigningKey => ({ algorithm: 'rsa-sha256', signDigest: (digest) => Promise.resolve(signRsaDigest(key, digest)) });
const spki = (key: KeyObject): Uint8Array => createPublicKey(key).export({ type: 'spki', format: 'der' });
const newKey = (): KeyObject => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));

/** A CA, and a leaf it issued. */
async function chain(name: string): Promise<{ root: Uint8Array; leaf: Uint8Array }> {
  const rootKey = newKey();
  const validFrom = new Date('2026-01-01T00:00:00Z');
  const root = await issueCertificate({ subject: [[OID.commonName, `${name} Root`]], publicKey: spki(rootKey), profile: 'ca', key: signingKey(rootKey), validFrom, validDays: 3650 });
  const leaf = await issueCertificate({ subject: [[OID.commonName, `${name} Signer`]], publicKey: spki(newKey()), profile: 'seal', issuer: root, key: signingKey(rootKey), validFrom, validDays: 365 });
  return { root, leaf };
}

/** A revocation source answering one made-up CRL per certificate, recording what it was asked. */
function recordingSource(): RevocationSource & { asked: { certificate: Uint8Array; issuedAfter?: Date }[] } {
  const asked: { certificate: Uint8Array; issuedAfter?: Date }[] = [];
  return {
    asked,
    revocation: (certificate, _issuer, options) => {
      asked.push({ certificate, ...(options?.issuedAfter ? { issuedAfter: options.issuedAfter } : {}) });
      return Promise.resolve({ crls: [bytes(`crl of ${Buffer.from(certificate).toString('base64').slice(-16)}`)], ocspResponses: [] });
    },
  };
}

let ours: { root: Uint8Array; leaf: Uint8Array };
let theirs: { root: Uint8Array; leaf: Uint8Array };
beforeAll(async () => { [ours, theirs] = await Promise.all([chain('Ours'), chain('Theirs')]); });

describe('collectValidationMaterial', () => {
  it('asks for revocation data issued after the given instant, for our chain and for earlier signers whose issuer is at hand', async () => {
    const source = recordingSource();
    const issuedAfter = new Date('2026-03-01T12:00:05Z');
    const material = await collectValidationMaterial([ours.leaf, ours.root], source, { issuedAfter, earlier: [theirs.leaf, theirs.root] });
    expect(source.asked.map((a) => a.issuedAfter)).toEqual([issuedAfter, issuedAfter]);
    expect(source.asked.map((a) => Buffer.from(a.certificate)).sort((a, b) => Buffer.compare(a, b))).toEqual([ours.leaf, theirs.leaf].map((c) => Buffer.from(c)).sort((a, b) => Buffer.compare(a, b)));
    expect(material.certificates).toHaveLength(4);
    expect(material.crls).toHaveLength(2);
  });

  it("skips an earlier signer's certificate without its issuer, or whose revocation cannot be had; our own chain stays strict", async () => {
    const working = recordingSource();
    const failing: RevocationSource = {
      revocation: async (certificate, issuer) => {
        if (Buffer.from(certificate).equals(Buffer.from(theirs.leaf))) throw new RevocationUnavailable('their CA is down');
        return working.revocation(certificate, issuer);
      },
    };
    const orphan = (await chain('Orphan')).leaf;
    const material = await collectValidationMaterial([ours.leaf, ours.root], failing, { earlier: [theirs.leaf, theirs.root, orphan, bytes('not a certificate')] });
    expect(material.crls).toHaveLength(1);
    expect(material.certificates.map((c) => Buffer.from(c))).toEqual(expect.arrayContaining([Buffer.from(theirs.leaf), Buffer.from(orphan)]));
    await expect(collectValidationMaterial([ours.leaf], recordingSource(), { earlier: [ours.root] })).resolves.toMatchObject({ crls: [expect.anything()] });
    await expect(collectValidationMaterial([theirs.leaf, ours.root], recordingSource())).rejects.toThrow(RevocationUnavailable);
  });
});

describe('addDss', () => {
  it('adds nothing the DSS already holds (compared decoded), also after the file was saved and loaded again', async () => {
    const material = { certificates: [ours.leaf, ours.root], crls: [bytes('crl one')], ocspResponses: [bytes('ocsp one')] };
    const doc = await PDFDocument.load(await makePdf());
    addDss(doc, material);
    addDss(doc, material);
    const again = await PDFDocument.load(await doc.save());
    addDss(again, { certificates: [ours.root, theirs.leaf, theirs.leaf], crls: [bytes('crl one'), bytes('crl two')], ocspResponses: [bytes('ocsp one')] });
    const dss = again.catalog.lookup(PDFName.of('DSS'), PDFDict);
    const count = (key: string) => dss.lookup(PDFName.of(key), PDFArray).size();
    expect([count('Certs'), count('CRLs'), count('OCSPs')]).toEqual([3, 2, 1]);
  });
});
