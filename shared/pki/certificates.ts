/**
 * X.509 helpers for the seal: a self-signed certificate whose signature comes from a `signDigest`
 * function (a local key, or a KMS key whose private half never leaves KMS), and PEM conversions.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export type SignatureAlgorithm = 'rsa-sha256' | 'ecdsa-sha256';

export interface SelfSignedCertificateOptions {
  /** DER SubjectPublicKeyInfo of the key that will sign (and is certified). */
  publicKeySpkiDer: Uint8Array;
  algorithm: SignatureAlgorithm;
  /** Signs a SHA-256 digest with the private key matching `publicKeySpkiDer`. */
  signDigest: (digest: Uint8Array) => Promise<Uint8Array>;
  commonName: string;
  organization?: string;
  validFrom: Date;
  validYears: number;
}

export const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  country: '2.5.4.6',
  organizationalUnit: '2.5.4.11',
  organizationIdentifier: '2.5.4.97',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  subjectKeyIdentifier: '2.5.29.14',
  certificatePolicies: '2.5.29.32',
  extensionRequest: '1.2.840.113549.1.9.14',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

/** keyUsage digitalSignature (bit 0) + nonRepudiation (bit 1): the two bits a document seal needs. */
const KEY_USAGE_SIGNING = new asn1js.BitString({ valueHex: new Uint8Array([0xc0]), unusedBits: 6 });

/** Issues a self-signed X.509 v3 certificate (DER), signed through `opts.signDigest`. */
export async function issueSelfSignedCertificate(opts: SelfSignedCertificateOptions): Promise<Uint8Array> {
  const name = distinguishedName([
    [OID.commonName, opts.commonName],
    ...(opts.organization === undefined ? [] : [[OID.organization, opts.organization] as const]),
  ]);
  const spki = pkijs.PublicKeyInfo.fromBER(opts.publicKeySpkiDer);
  const notBefore = wholeSeconds(opts.validFrom);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + opts.validYears);
  const cert = new pkijs.Certificate({
    version: 2, // v3
    serialNumber: new asn1js.Integer({ valueHex: serialNumber() }),
    signature: certificateSignatureAlgorithm(opts.algorithm),
    issuer: name,
    subject: name,
    notBefore: x509Time(notBefore),
    notAfter: x509Time(notAfter),
    subjectPublicKeyInfo: spki,
    extensions: signingExtensions(spki),
    signatureAlgorithm: certificateSignatureAlgorithm(opts.algorithm),
  });
  cert.tbsView = new Uint8Array(cert.encodeTBS().toBER(false));
  const signature = await opts.signDigest(sha256(cert.tbsView));
  cert.signatureValue = new asn1js.BitString({ valueHex: signature });
  return new Uint8Array(cert.toSchema(false).toBER(false));
}

/**
 * An X.509 Name with one RDN SET per attribute (CN, O, ... each its own RDN). pkijs would put them all
 * in one multi-valued RDN, which viewers show oddly and some validators reject.
 */
export function distinguishedName(attributes: readonly (readonly [string, string])[]): pkijs.RelativeDistinguishedNames {
  const rdns = attributes.map(
    ([type, value]) =>
      // countryName is a PrintableString (RFC 5280 appendix A); everything else UTF-8.
      new asn1js.Set({ value: [new pkijs.AttributeTypeAndValue({ type, value: type === OID.country ? new asn1js.PrintableString({ value }) : new asn1js.Utf8String({ value }) }).toSchema()] }),
  );
  // Parsed back from DER so pkijs keeps (and re-emits) exactly this encoding.
  return pkijs.RelativeDistinguishedNames.fromBER(new asn1js.Sequence({ value: rdns }).toBER(false));
}

/** UTCTime for 1950-2049 as RFC 5280 requires, GeneralizedTime outside (asn1js throws on UTCTime there). */
export function x509Time(date: Date): pkijs.Time {
  const year = date.getUTCFullYear();
  const type = year >= 1950 && year <= 2049 ? pkijs.TimeType.UTCTime : pkijs.TimeType.GeneralizedTime;
  return new pkijs.Time({ type, value: wholeSeconds(date) });
}

export function certificateSignatureAlgorithm(algorithm: SignatureAlgorithm): pkijs.AlgorithmIdentifier {
  return algorithm === 'rsa-sha256'
    ? new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRsa, algorithmParams: new asn1js.Null() })
    : new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 }); // RFC 5758: no parameters
}

function signingExtensions(spki: pkijs.PublicKeyInfo): pkijs.Extension[] {
  const keyId = createHash('sha1').update(spki.subjectPublicKey.valueBlock.valueHexView).digest(); // RFC 5280 §4.2.1.2 (1)
  const extension = (extnID: string, critical: boolean, value: asn1js.BaseBlock): pkijs.Extension =>
    new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
  return [
    extension(OID.keyUsage, true, KEY_USAGE_SIGNING),
    extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: false }).toSchema()),
    extension(OID.subjectKeyIdentifier, false, new asn1js.OctetString({ valueHex: keyId })),
  ];
}

/** 16 random bytes, positive and without a leading zero byte (a minimal DER INTEGER). */
export function serialNumber(): Uint8Array {
  const bytes = new Uint8Array(randomBytes(16));
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x40;
  return bytes;
}

/** DER times carry no fractional seconds. */
export const wholeSeconds = (date: Date): Date => new Date(Math.floor(date.getTime() / 1000) * 1000);

export const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

// ---------------------------------------------------------------------------------------------
// PEM.

/** PEM text of one DER block (64-column base64, as OpenSSL writes). */
export function toPem(der: Uint8Array, label = 'CERTIFICATE'): string {
  const lines = Buffer.from(der).toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** Every `label` block of a PEM text, in order, as DER (a certificate chain file gives the chain). */
export function fromPem(pem: string, label = 'CERTIFICATE'): Uint8Array[] {
  const block = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+?)-----END ${label}-----`, 'g');
  return [...pem.matchAll(block)].map((m) => new Uint8Array(Buffer.from((m[1] ?? '').replace(/\s+/g, ''), 'base64')));
}

/** The SubjectPublicKeyInfo (DER) of a DER certificate. */
export function certificatePublicKey(certificateDer: Uint8Array): Uint8Array {
  const cert = pkijs.Certificate.fromBER(certificateDer);
  return new Uint8Array(cert.subjectPublicKeyInfo.toSchema().toBER(false));
}
