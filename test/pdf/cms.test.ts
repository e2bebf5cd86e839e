import { createHash, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DocumentSigner } from '../../shared/ports/services.ts';
import { signRsaDigest } from '../../shared/adapters/local/key-file-signer.ts';
import { issueSelfSignedCertificate, toPem } from '../../shared/pki/certificates.ts';
import { CMS_OID, buildCadesSignature, signedAttributes, signedAttributesToSign } from '../../shared/pki/cms.ts';
import { opensslCmsVerify, opensslSignDigest } from './signature-tools.ts';

const SIGNING_TIME_OID = '1.2.840.113549.1.9.5';
const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

interface TestSigner extends DocumentSigner {
  publicKey: KeyObject;
  chain: Uint8Array[];
}

/** An RSA or P-256 key with a self-signed certificate, plus an unrelated second certificate as "chain". */
async function testSigner(kind: 'rsa' | 'ec'): Promise<TestSigner> {
  const { privateKey, publicKey } =
    kind === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const algorithm = kind === 'rsa' ? 'rsa-sha256' : 'ecdsa-sha256';
  const signDigest = (digest: Uint8Array) =>
    Promise.resolve(kind === 'rsa' ? signRsaDigest(privateKey, digest) : opensslSignDigest(keyPem, digest));
  const certificate = (commonName: string) =>
    issueSelfSignedCertificate({
      publicKeySpkiDer: publicKey.export({ type: 'spki', format: 'der' }),
      algorithm,
      signDigest,
      commonName,
      validFrom: new Date('2026-01-01T00:00:00Z'),
      validYears: 5,
    });
  const chain = [await certificate('Seal'), await certificate('Second in chain')];
  return { algorithm, publicKey, chain, signDigest, certificateChain: () => Promise.resolve(chain) };
}

/** `block`, checked to be a `type` (asn1js parses to these classes). */
function only<T>(type: new (...args: never[]) => T, block: unknown): T {
  if (!(block instanceof type)) throw new Error(`expected ${type.name}`);
  return block;
}

function parseSignedData(cms: Uint8Array): pkijs.SignedData {
  const info = pkijs.ContentInfo.fromBER(cms);
  expect(info.contentType).toBe(CMS_OID.signedData);
  return new pkijs.SignedData({ schema: info.content });
}

describe('buildCadesSignature', () => {
  let rsa: TestSigner;
  const content = new Uint8Array(randomBytes(1000));
  let cms: Uint8Array;
  let signedData: pkijs.SignedData;

  beforeAll(async () => {
    rsa = await testSigner('rsa');
    cms = await buildCadesSignature(rsa, sha256(content));
    signedData = parseSignedData(cms);
  });

  it('is a detached SignedData with SHA-256 and the whole certificate chain', () => {
    expect(signedData.version).toBe(1);
    expect(signedData.digestAlgorithms.map((a) => a.algorithmId)).toEqual([CMS_OID.sha256]);
    expect(signedData.encapContentInfo.eContentType).toBe(CMS_OID.data);
    expect(signedData.encapContentInfo.eContent).toBeUndefined();
    const certificates = (signedData.certificates ?? []).map((c) => new Uint8Array((c as pkijs.Certificate).toSchema().toBER(false)));
    expect(certificates).toEqual(rsa.chain);
  });

  it('has exactly contentType, messageDigest and signingCertificateV2, in DER SET OF order', () => {
    const signerInfo = signedData.signerInfos[0]!;
    const attributes = signerInfo.signedAttrs?.attributes ?? [];
    expect(attributes.map((a) => a.type).sort()).toEqual([CMS_OID.contentType, CMS_OID.messageDigest, CMS_OID.signingCertificateV2].sort());
    expect(attributes.map((a) => a.type)).not.toContain(SIGNING_TIME_OID); // B-B: the time is the PDF's /M
    const encodings = attributes.map((a) => Buffer.from(a.toSchema().toBER(false)));
    expect([...encodings].sort((a, b) => Buffer.compare(a, b))).toEqual(encodings);
    const digest = attributes.find((a) => a.type === CMS_OID.messageDigest)!.values[0] as asn1js.OctetString;
    expect(new Uint8Array(digest.valueBlock.valueHexView)).toEqual(sha256(content));
    const contentType = attributes.find((a) => a.type === CMS_OID.contentType)!.values[0] as asn1js.ObjectIdentifier;
    expect(contentType.valueBlock.toString()).toBe(CMS_OID.data);
  });

  it('signingCertificateV2 carries the SHA-256 of the signing certificate and its issuer and serial', () => {
    const attributes = signedData.signerInfos[0]!.signedAttrs?.attributes ?? [];
    const value = attributes.find((a) => a.type === CMS_OID.signingCertificateV2)!.values[0] as asn1js.Sequence;
    const certs = only(asn1js.Sequence, value.valueBlock.value[0]);
    const essCertId = only(asn1js.Sequence, certs.valueBlock.value[0]);
    const hash = only(asn1js.OctetString, essCertId.valueBlock.value[0]); // hashAlgorithm omitted: SHA-256 is the DEFAULT
    const issuerSerial = only(asn1js.Sequence, essCertId.valueBlock.value[1]);
    expect(new Uint8Array(hash.valueBlock.valueHexView)).toEqual(sha256(rsa.chain[0]!));
    const leaf = pkijs.Certificate.fromBER(rsa.chain[0]!);
    const serial = only(asn1js.Integer, issuerSerial.valueBlock.value[1]);
    expect(Buffer.from(serial.valueBlock.valueHexView)).toEqual(Buffer.from(leaf.serialNumber.valueBlock.valueHexView));
    const names = new pkijs.GeneralNames({ schema: issuerSerial.valueBlock.value[0] });
    expect((names.names[0]!.value as pkijs.RelativeDistinguishedNames).isEqual(leaf.issuer)).toBe(true);
  });

  it('the signature is over the signed attributes as a DER SET, with rsaEncryption, for the first certificate', () => {
    const signerInfo = signedData.signerInfos[0]!;
    const leaf = pkijs.Certificate.fromBER(rsa.chain[0]!);
    const sid = signerInfo.sid as pkijs.IssuerAndSerialNumber;
    expect(sid.serialNumber.isEqual(leaf.serialNumber)).toBe(true);
    expect(signerInfo.signatureAlgorithm.algorithmId).toBe(CMS_OID.rsaEncryption);
    const signedBytes = new Uint8Array(signerInfo.signedAttrs!.encodedValue); // pkijs re-tags it 0x31 when parsing
    expect(signedBytes[0]).toBe(0x31);
    const signature = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
    expect(verify('sha256', signedBytes, rsa.publicKey, signature)).toBe(true);
    expect(signedAttributesToSign(signedAttributes(sha256(content), rsa.chain[0]!))).toEqual(signedBytes);
  });

  it('openssl cms -verify accepts it against the content, with and without the certificate as trust anchor', () => {
    expect(opensslCmsVerify(cms, content)).toMatchObject({ ok: true });
    expect(opensslCmsVerify(cms, content, toPem(rsa.chain[0]!))).toMatchObject({ ok: true });
    const other = new Uint8Array(content);
    other[0] = (other[0] ?? 0) ^ 1;
    expect(opensslCmsVerify(cms, other).ok).toBe(false);
  });

  it('works with an ECDSA P-256 signer (ecdsa-with-SHA256, DER signature)', async () => {
    const ec = await testSigner('ec');
    const ecCms = await buildCadesSignature(ec, sha256(content));
    const signerInfo = parseSignedData(ecCms).signerInfos[0]!;
    expect(signerInfo.signatureAlgorithm.algorithmId).toBe(CMS_OID.ecdsaWithSha256);
    expect(signerInfo.signatureAlgorithm.algorithmParams).toBeUndefined();
    const signedBytes = new Uint8Array(signerInfo.signedAttrs!.encodedValue);
    const signature = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
    expect(verify('sha256', signedBytes, ec.publicKey, signature)).toBe(true);
    expect(opensslCmsVerify(ecCms, content)).toMatchObject({ ok: true });
  });

  it('refuses a signer without a certificate', async () => {
    const bare: DocumentSigner = { ...rsa, certificateChain: () => Promise.resolve([]) };
    await expect(buildCadesSignature(bare, sha256(content))).rejects.toThrow(/no certificate/);
  });
});
