/**
 * A small certificate authority's tools: certificates issued by a CA key (CA, seal, timestamp authority),
 * certificate revocation lists, certificate signing requests, and subject names parsed from "CN=...,O=...,C=...".
 * Every signature comes from a `signDigest` function, so the key may be a local file or a KMS key.
 */
import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { certificateSignatureAlgorithm, distinguishedName, OID, serialNumber, sha256, wholeSeconds, x509Time, type SignatureAlgorithm } from './certificates.ts';

export interface SigningKey {
  algorithm: SignatureAlgorithm;
  signDigest: (digest: Uint8Array) => Promise<Uint8Array>;
}

export type Profile = 'ca' | 'seal' | 'timestamping';

export interface IssueOptions {
  subject: readonly (readonly [string, string])[];
  /** DER SubjectPublicKeyInfo of the key being certified. */
  publicKey: Uint8Array;
  profile: Profile;
  /** The issuer's certificate (DER); absent: self-signed (then `key` is the subject's own key). */
  issuer?: Uint8Array;
  key: SigningKey;
  /** Where relying parties fetch the issuer's CRL. */
  crlUrl?: string;
  /** The issuer's OCSP responder (Authority Information Access). */
  ocspUrl?: string;
  validFrom: Date;
  validDays: number;
}

const EXT = {
  keyUsage: '2.5.29.15', basicConstraints: '2.5.29.19', subjectKeyIdentifier: '2.5.29.14', authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37', crlDistributionPoints: '2.5.29.31', crlNumber: '2.5.29.20', timeStamping: '1.3.6.1.5.5.7.3.8',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1', ocsp: '1.3.6.1.5.5.7.48.1',
} as const;

/** keyUsage bits: digitalSignature (0), nonRepudiation (1), keyCertSign (5), cRLSign (6). */
const KEY_USAGE: Record<Profile, asn1js.BitString> = {
  ca: new asn1js.BitString({ valueHex: new Uint8Array([0x06]), unusedBits: 1 }),
  seal: new asn1js.BitString({ valueHex: new Uint8Array([0xc0]), unusedBits: 6 }),
  timestamping: new asn1js.BitString({ valueHex: new Uint8Array([0xc0]), unusedBits: 6 }),
};

const extension = (extnID: string, critical: boolean, value: asn1js.BaseBlock): pkijs.Extension =>
  new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });

/** RFC 5280 §4.2.1.2 (1): SHA-1 of the subjectPublicKey bits. */
const keyIdentifier = (spki: pkijs.PublicKeyInfo): Uint8Array => new Uint8Array(createHash('sha1').update(spki.subjectPublicKey.valueBlock.valueHexView).digest());

export async function issueCertificate(opts: IssueOptions): Promise<Uint8Array> {
  const spki = pkijs.PublicKeyInfo.fromBER(opts.publicKey);
  const subject = distinguishedName(opts.subject);
  const issuerCert = opts.issuer ? pkijs.Certificate.fromBER(opts.issuer) : undefined;
  const notBefore = wholeSeconds(opts.validFrom);
  const cert = new pkijs.Certificate({
    version: 2,
    serialNumber: new asn1js.Integer({ valueHex: serialNumber() }),
    signature: certificateSignatureAlgorithm(opts.key.algorithm),
    issuer: issuerCert ? issuerCert.subject : subject,
    subject,
    notBefore: x509Time(notBefore),
    notAfter: x509Time(new Date(notBefore.getTime() + opts.validDays * 86_400_000)),
    subjectPublicKeyInfo: spki,
    extensions: extensions(opts, spki, issuerCert?.subjectPublicKeyInfo ?? spki),
    signatureAlgorithm: certificateSignatureAlgorithm(opts.key.algorithm),
  });
  cert.tbsView = new Uint8Array(cert.encodeTBS().toBER(false));
  cert.signatureValue = new asn1js.BitString({ valueHex: await opts.key.signDigest(sha256(cert.tbsView)) });
  return new Uint8Array(cert.toSchema(false).toBER(false));
}

function extensions(opts: IssueOptions, spki: pkijs.PublicKeyInfo, issuerSpki: pkijs.PublicKeyInfo): pkijs.Extension[] {
  const list = [
    // A CA here issues end-entity certificates only (seal, timestamping): no intermediate may hang below it.
    extension(EXT.basicConstraints, true, new pkijs.BasicConstraints(opts.profile === 'ca' ? { cA: true, pathLenConstraint: 0 } : { cA: false }).toSchema()),
    extension(EXT.keyUsage, true, KEY_USAGE[opts.profile]),
    extension(EXT.subjectKeyIdentifier, false, new asn1js.OctetString({ valueHex: keyIdentifier(spki) })),
    extension(EXT.authorityKeyIdentifier, false, new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: keyIdentifier(issuerSpki) }) }).toSchema()),
  ];
  // RFC 3161 §2.3: a TSA's certificate has exactly this one extended key usage, marked critical.
  if (opts.profile === 'timestamping') list.push(extension(EXT.extKeyUsage, true, new pkijs.ExtKeyUsage({ keyPurposes: [EXT.timeStamping] }).toSchema()));
  if (opts.crlUrl) list.push(extension(EXT.crlDistributionPoints, false, crlDistributionPoints(opts.crlUrl)));
  if (opts.ocspUrl) {
    const ocsp = new pkijs.AccessDescription({ accessMethod: EXT.ocsp, accessLocation: new pkijs.GeneralName({ type: 6, value: opts.ocspUrl }) });
    list.push(extension(EXT.authorityInfoAccess, false, new pkijs.InfoAccess({ accessDescriptions: [ocsp] }).toSchema()));
  }
  return list;
}

function crlDistributionPoints(url: string): asn1js.BaseBlock {
  const point = new pkijs.DistributionPoint({ distributionPoint: [new pkijs.GeneralName({ type: 6, value: url })] });
  return new pkijs.CRLDistributionPoints({ distributionPoints: [point] }).toSchema();
}

/** The http(s) URLs of a certificate's CRL distribution points. */
export function crlUrls(certificate: Uint8Array): string[] {
  const cert = pkijs.Certificate.fromBER(certificate);
  const ext = cert.extensions?.find((e) => e.extnID === EXT.crlDistributionPoints);
  if (!ext) return [];
  const points = new pkijs.CRLDistributionPoints({ schema: asn1js.fromBER(ext.extnValue.valueBlock.valueHexView).result });
  return points.distributionPoints.flatMap((point) => (Array.isArray(point.distributionPoint) ? point.distributionPoint : []))
    .flatMap((name) => (name.type === 6 && typeof name.value === 'string' && /^https?:/i.test(name.value) ? [name.value] : []));
}

/** A CRL (v2) issued by `issuer` with `key`, listing `revoked` serial numbers (DER INTEGER bytes). */
export async function issueCrl(opts: { issuer: Uint8Array; key: SigningKey; thisUpdate: Date; nextUpdate: Date; number: number; revoked?: Uint8Array[] }): Promise<Uint8Array> {
  const issuer = pkijs.Certificate.fromBER(opts.issuer);
  const crl = new pkijs.CertificateRevocationList({
    version: 1,
    signature: certificateSignatureAlgorithm(opts.key.algorithm),
    issuer: issuer.subject,
    thisUpdate: x509Time(opts.thisUpdate),
    nextUpdate: x509Time(opts.nextUpdate),
    ...(opts.revoked?.length ? { revokedCertificates: opts.revoked.map((serial) => new pkijs.RevokedCertificate({ userCertificate: new asn1js.Integer({ valueHex: serial }), revocationDate: x509Time(opts.thisUpdate) })) } : {}),
    crlExtensions: new pkijs.Extensions({ extensions: [
      extension(EXT.crlNumber, false, new asn1js.Integer({ value: opts.number })),
      extension(EXT.authorityKeyIdentifier, false, new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: keyIdentifier(issuer.subjectPublicKeyInfo) }) }).toSchema()),
    ] }),
    signatureAlgorithm: certificateSignatureAlgorithm(opts.key.algorithm),
  });
  const tbs = new Uint8Array((crl as unknown as { encodeTBS(): asn1js.Sequence }).encodeTBS().toBER(false));
  crl.tbsView = tbs;
  crl.signatureValue = new asn1js.BitString({ valueHex: await opts.key.signDigest(sha256(tbs)) });
  return new Uint8Array((crl.toSchema(false) as asn1js.Sequence).toBER(false));
}

/**
 * A PKCS#10 certificate signing request for `publicKey`, signed through `key` (proof of possession); `policies`
 * are requested as a certificatePolicies extension (in the extensionRequest attribute, RFC 2985 §5.4.2).
 */
export async function certificationRequest(subject: readonly (readonly [string, string])[], publicKey: Uint8Array, key: SigningKey, policies: readonly string[] = []): Promise<Uint8Array> {
  const csr = new pkijs.CertificationRequest({
    version: 0,
    subject: distinguishedName(subject),
    subjectPublicKeyInfo: pkijs.PublicKeyInfo.fromBER(publicKey),
    signatureAlgorithm: certificateSignatureAlgorithm(key.algorithm),
  });
  if (policies.length > 0) {
    const certificatePolicies = new pkijs.CertificatePolicies({ certificatePolicies: policies.map((policyIdentifier) => new pkijs.PolicyInformation({ policyIdentifier })) });
    const extension = new pkijs.Extension({ extnID: OID.certificatePolicies, critical: false, extnValue: certificatePolicies.toSchema().toBER(false) });
    csr.attributes = [new pkijs.Attribute({ type: OID.extensionRequest, values: [new pkijs.Extensions({ extensions: [extension] }).toSchema()] })];
  }
  const tbs = new Uint8Array((csr as unknown as { encodeTBS(): asn1js.Sequence }).encodeTBS().toBER(false));
  csr.tbsView = tbs;
  csr.signatureValue = new asn1js.BitString({ valueHex: await key.signDigest(sha256(tbs)) });
  return new Uint8Array(csr.toSchema().toBER(false));
}

const ATTRIBUTE_OIDS: Record<string, string> = {
  CN: OID.commonName, O: OID.organization, OU: OID.organizationalUnit, C: OID.country, organizationIdentifier: OID.organizationIdentifier,
};

/** "CN=E-Signature Service,O=Example Ltd,C=DE" as (OID, value) pairs, in order; `\,` escapes a comma. */
export function parseSubject(text: string): [string, string][] {
  const parts = text.split(/(?<!\\),/).map((part) => part.trim()).filter(Boolean);
  return parts.map((part) => {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim().replace(/\\,/g, ',');
    const oid = ATTRIBUTE_OIDS[key];
    if (at <= 0 || !oid || !value) throw new Error(`Unsupported subject attribute "${part}" (use CN, O, OU, C, organizationIdentifier)`);
    if (key === 'C' && !/^[A-Z]{2}$/.test(value)) throw new Error('C must be a two-letter country code');
    return [oid, value];
  });
}
