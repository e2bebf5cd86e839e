import { X509Certificate, createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { signRsaDigest } from '../../shared/adapters/local/key-file-signer.ts';
import { distinguishedName, fromPem, issueSelfSignedCertificate, toPem, x509Time } from '../../shared/pki/certificates.ts';
import { opensslSignDigest, x509Text } from './signature-tools.ts';

const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ecKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const spki = (key: KeyObject): Uint8Array => key.export({ type: 'spki', format: 'der' });

function issueRsa(overrides: { validFrom?: Date; validYears?: number; organization?: string } = {}) {
  const digests: Uint8Array[] = [];
  const der = issueSelfSignedCertificate({
    publicKeySpkiDer: spki(rsaKey.publicKey),
    algorithm: 'rsa-sha256',
    signDigest: (digest) => {
      digests.push(digest);
      return Promise.resolve(signRsaDigest(rsaKey.privateKey, digest));
    },
    commonName: 'Test Seal',
    organization: 'organization' in overrides ? overrides.organization : 'Acme Łódź',
    validFrom: overrides.validFrom ?? new Date('2026-05-01T10:20:30.456Z'),
    validYears: overrides.validYears ?? 3,
  });
  return { der, digests };
}

describe('issueSelfSignedCertificate', () => {
  it('issues a v3 certificate that verifies under its own key, for the signing key, over SHA-256 of the TBS', async () => {
    const { der: pending, digests } = issueRsa();
    const der = await pending;
    const cert = new X509Certificate(der);
    expect(cert.verify(rsaKey.publicKey)).toBe(true);
    expect(cert.publicKey.export({ type: 'spki', format: 'der' })).toEqual(Buffer.from(spki(rsaKey.publicKey)));
    expect(cert.subject).toBe('CN=Test Seal\nO=Acme Łódź');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.ca).toBe(false);
    expect(new Date(cert.validFrom)).toEqual(new Date('2026-05-01T10:20:30Z')); // whole seconds
    expect(new Date(cert.validTo)).toEqual(new Date('2029-05-01T10:20:30Z'));
    const tbs = new Uint8Array(pkijs.Certificate.fromBER(der).tbsView);
    expect(digests).toEqual([new Uint8Array(createHash('sha256').update(tbs).digest())]);
    expect(cert.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/); // 16 bytes, positive, no leading zero byte
  });

  it('marks the key for signatures only: keyUsage digitalSignature + nonRepudiation, CA:FALSE, a key identifier', async () => {
    const der = await issueRsa().der;
    const text = x509Text(der);
    expect(text).toContain('Signature Algorithm: sha256WithRSAEncryption');
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Non Repudiation\n/);
    expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE/);
    const bits = pkijs.Certificate.fromBER(der).subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
    const keyId = createHash('sha1').update(bits).digest('hex').toUpperCase().match(/../g)!.join(':');
    expect(text).toMatch(new RegExp(`X509v3 Subject Key Identifier:\\s+${keyId}`));
  });

  it('writes each name attribute as its own RDN (no multi-valued RDN)', async () => {
    const cert = pkijs.Certificate.fromBER(await issueRsa().der);
    const rdnSequence = cert.subject.toSchema();
    const rdns = rdnSequence.valueBlock.value.filter((rdn) => rdn instanceof asn1js.Set);
    expect(rdns).toHaveLength(2);
    for (const rdn of rdns) expect(rdn.valueBlock.value).toHaveLength(1);
    const onlyCn = distinguishedName([['2.5.4.3', 'Only']]).toSchema();
    expect(onlyCn.valueBlock.value).toHaveLength(1);
  });

  it('uses GeneralizedTime outside 1950-2049 and UTCTime inside', async () => {
    const der = await issueRsa({ validFrom: new Date('2045-01-01T00:00:00Z'), validYears: 10 }).der;
    const cert = pkijs.Certificate.fromBER(der);
    expect(cert.notBefore.type).toBe(pkijs.TimeType.UTCTime);
    expect(cert.notAfter.type).toBe(pkijs.TimeType.GeneralizedTime);
    expect(cert.notAfter.value).toEqual(new Date('2055-01-01T00:00:00Z'));
    expect(x509Time(new Date('1949-12-31T23:59:59Z')).type).toBe(pkijs.TimeType.GeneralizedTime);
    expect(x509Time(new Date('1950-01-01T00:00:00Z')).type).toBe(pkijs.TimeType.UTCTime);
    expect(x509Text(der)).toContain('Not After : Jan  1 00:00:00 2055 GMT');
  });

  it('omits the organization when not given', async () => {
    const cert = new X509Certificate(await issueRsa({ organization: undefined }).der);
    expect(cert.subject).toBe('CN=Test Seal');
  });

  it('issues an ECDSA P-256 certificate (ecdsa-with-SHA256, no parameters) signed through the digest callback', async () => {
    const keyPem = ecKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const der = await issueSelfSignedCertificate({
      publicKeySpkiDer: spki(ecKey.publicKey),
      algorithm: 'ecdsa-sha256',
      signDigest: (digest) => Promise.resolve(opensslSignDigest(keyPem, digest)),
      commonName: 'EC Seal',
      validFrom: new Date('2026-01-01T00:00:00Z'),
      validYears: 1,
    });
    expect(new X509Certificate(der).verify(ecKey.publicKey)).toBe(true);
    expect(x509Text(der)).toContain('Signature Algorithm: ecdsa-with-SHA256');
    expect(pkijs.Certificate.fromBER(der).signatureAlgorithm.algorithmParams).toBeUndefined();
  });
});

describe('PEM helpers', () => {
  it('round-trip a chain of certificates and write what openssl and node read', async () => {
    const first = await issueRsa().der;
    const second = await issueRsa({ organization: undefined }).der;
    const pem = toPem(first) + toPem(second);
    expect(pem.split('\n').every((line) => line.length <= 64)).toBe(true);
    expect(fromPem(pem)).toEqual([first, second]);
    expect(new X509Certificate(toPem(first)).raw).toEqual(Buffer.from(first));
    expect(fromPem('no pem here')).toEqual([]);
    expect(fromPem(toPem(new Uint8Array([1, 2, 3]), 'PRIVATE KEY'), 'PRIVATE KEY')).toEqual([new Uint8Array([1, 2, 3])]);
  });
});
