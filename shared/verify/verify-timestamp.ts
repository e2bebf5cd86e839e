/**
 * CMS signatures and RFC 3161 timestamp tokens, checked with pkijs over WebCrypto (browser and Node): the message
 * digest against the data, the signature over the signed attributes with the signer's key, and a token's
 * message imprint against what it should stamp.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { copyOf, distinguishedName, inPlace } from './verify-chain.ts';

export const OIDS = {
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
} as const;

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'SHA-1', '2.16.840.1.101.3.4.2.1': 'SHA-256', '2.16.840.1.101.3.4.2.2': 'SHA-384', '2.16.840.1.101.3.4.2.3': 'SHA-512',
};
const SIGNATURES: Record<string, string> = {
  '1.2.840.113549.1.1.1': 'RSA', '1.2.840.113549.1.1.11': 'RSA with SHA-256', '1.2.840.113549.1.1.12': 'RSA with SHA-384', '1.2.840.113549.1.1.13': 'RSA with SHA-512',
  '1.2.840.113549.1.1.10': 'RSA-PSS', '1.2.840.10045.4.3.2': 'ECDSA with SHA-256', '1.2.840.10045.4.3.3': 'ECDSA with SHA-384', '1.2.840.10045.4.3.4': 'ECDSA with SHA-512',
};

export const digestName = (oid: string): string | null => DIGESTS[oid] ?? null;
export const signatureName = (oid: string): string => SIGNATURES[oid] ?? oid;

export async function digest(algorithmOid: string, data: Uint8Array): Promise<Uint8Array | null> {
  const name = digestName(algorithmOid);
  return name ? new Uint8Array(await crypto.subtle.digest(name, inPlace(data))) : null;
}

/** What a signature or timestamp is checked against: the bytes, or (a PDF's covered range) their SHA-256 already known and the bytes joined only if another digest is asked. */
export type Checked = Uint8Array | { sha256: Uint8Array; bytes: () => Uint8Array };

const SHA256_OID = '2.16.840.1.101.3.4.2.1';
const bytesOf = (data: Checked): Uint8Array => (data instanceof Uint8Array ? data : data.bytes());
const digestOf = (oid: string, data: Checked): Promise<Uint8Array | null> =>
  !(data instanceof Uint8Array) && oid === SHA256_OID ? Promise.resolve(data.sha256) : digest(oid, bytesOf(data));

const equal = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i]);

export interface ParsedCms {
  signedData: pkijs.SignedData;
  signerInfo: pkijs.SignerInfo;
  signer: pkijs.Certificate | null;
  certificates: pkijs.Certificate[];
  crls: Uint8Array[];
}

/** A DER ContentInfo holding SignedData with one signer, or null when it is not that. */
export function parseCms(der: Uint8Array): ParsedCms | null {
  try {
    const info = pkijs.ContentInfo.fromBER(copyOf(der));
    if (info.contentType !== OIDS.signedData) return null;
    const signedData = new pkijs.SignedData({ schema: info.content });
    const signerInfo = signedData.signerInfos[0];
    if (!signerInfo) return null;
    const certificates = (signedData.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
    const sid = signerInfo.sid as pkijs.IssuerAndSerialNumber | asn1js.OctetString;
    const signer = certificates.find((cert) => (sid instanceof pkijs.IssuerAndSerialNumber
      ? cert.issuer.isEqual(sid.issuer) && cert.serialNumber.isEqual(sid.serialNumber)
      : false)) ?? null;
    const crls = (signedData.crls ?? []).flatMap((crl) => (crl instanceof pkijs.CertificateRevocationList ? [new Uint8Array((crl.toSchema() as asn1js.Sequence).toBER(false))] : []));
    return { signedData, signerInfo, signer, certificates, crls };
  } catch {
    return null;
  }
}

const attribute = (info: pkijs.SignerInfo, type: string, unsigned = false): asn1js.BaseBlock | undefined =>
  (unsigned ? info.unsignedAttrs : info.signedAttrs)?.attributes.find((a) => a.type === type)?.values[0] as asn1js.BaseBlock | undefined;

export interface CmsCheck {
  /** The message digest attribute equals the digest of the data. */
  digestMatches: boolean;
  /** The signature over the signed attributes verifies with the signer's key. */
  signatureValid: boolean;
  digestAlgorithm: string;
  signatureAlgorithm: string;
  hasSigningCertificateAttribute: boolean;
  /** The signing-time attribute, when the CMS carries one (PAdES puts the claimed time in /M instead). */
  signingTime: Date | null;
}

/**
 * Checks a detached (`data`) or encapsulated (data undefined) CMS signature. For a timestamp token pkijs also checks
 * the imprint, against `stamped`.
 */
export async function checkCms(cms: ParsedCms, data?: Checked, stamped?: Checked): Promise<CmsCheck> {
  const { signerInfo, signedData } = cms;
  const digestOid = signerInfo.digestAlgorithm.algorithmId;
  const content = data ?? encapsulatedContent(signedData);
  const expected = attribute(signerInfo, OIDS.messageDigest) as asn1js.OctetString | undefined;
  const actual = content ? await digestOf(digestOid, content) : null;
  const digestMatches = !!expected && !!actual && equal(new Uint8Array(expected.valueBlock.valueHexView), actual);
  let signatureValid = false;
  if (digestMatches && cms.signer) {
    try {
      signatureValid = await signatureVerifies(cms, () => bytesOf(stamped ?? content ?? new Uint8Array()));
    } catch {
      signatureValid = false;
    }
  }
  const time = attribute(signerInfo, OIDS.signingTime) as asn1js.UTCTime | asn1js.GeneralizedTime | undefined;
  return {
    digestMatches, signatureValid,
    digestAlgorithm: digestName(digestOid) ?? digestOid,
    signatureAlgorithm: signatureName(signerInfo.signatureAlgorithm.algorithmId),
    hasSigningCertificateAttribute: !!attribute(signerInfo, OIDS.signingCertificateV2) || !!attribute(signerInfo, OIDS.signingCertificate),
    signingTime: time ? time.toDate() : null,
  };
}

/**
 * The signer's signature. With signed attributes (every CAdES signature and timestamp token), the last step of
 * pkijs's SignedData.verify alone: the message digest is already checked above and a token's imprint by the caller,
 * and pkijs would hash the data (a whole PDF) once more for each. Without, pkijs's verify over the data.
 */
async function signatureVerifies(cms: ParsedCms, data: () => Uint8Array): Promise<boolean> {
  const { signerInfo, signedData, signer } = cms;
  if (!signer) return false;
  const attrs = signerInfo.signedAttrs;
  if (!attrs) return (await signedData.verify({ signer: 0, data: copyOf(data()), checkChain: false, extendedMode: true })).signatureVerified === true;
  if (!attrs.attributes.some((a) => a.type === OIDS.contentType)) return false; // pkijs requires it
  const engine = pkijs.getCrypto(true);
  const hash: { name: string } | object = engine.getAlgorithmByOID<{ name: string }>(signerInfo.digestAlgorithm.algorithmId);
  if (!('name' in hash)) return false;
  // pkijs keeps the attributes as parsed, their tag already turned into SET: exactly what was signed
  const signed = attrs.encodedValue.byteLength > 0 ? attrs.encodedValue : signedAttributesAsSet(attrs);
  return signerInfo.signatureAlgorithm.algorithmId === RSA_ENCRYPTION
    ? engine.verifyWithPublicKey(signed, signerInfo.signature, signer.subjectPublicKeyInfo, signerInfo.signatureAlgorithm, hash.name)
    : engine.verifyWithPublicKey(signed, signerInfo.signature, signer.subjectPublicKeyInfo, signerInfo.signatureAlgorithm);
}

const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';

function signedAttributesAsSet(attrs: pkijs.SignedAndUnsignedAttributes): ArrayBuffer {
  const encoded = attrs.toSchema().toBER(false);
  new Uint8Array(encoded)[0] = 0x31;
  return encoded;
}

function encapsulatedContent(signedData: pkijs.SignedData): Uint8Array | null {
  const content = signedData.encapContentInfo.eContent;
  return content ? new Uint8Array(content.getValue()) : null;
}

export interface TimestampCheck {
  cms: ParsedCms;
  genTime: Date;
  /** The token is intact and signed, and its imprint is the digest of what it should stamp. */
  valid: boolean;
  imprintMatches: boolean;
  tsa: string | null;
}

/** A timestamp token's TSTInfo, checked against `stamped` (the bytes whose digest it must carry). */
export async function checkTimestamp(token: Uint8Array, stamped: Checked): Promise<TimestampCheck | null> {
  const cms = parseCms(token);
  if (cms?.signedData.encapContentInfo.eContentType !== OIDS.tstInfo) return null;
  const content = encapsulatedContent(cms.signedData);
  if (!content) return null;
  let info: pkijs.TSTInfo;
  try {
    info = pkijs.TSTInfo.fromBER(copyOf(content));
  } catch {
    return null;
  }
  const imprint = await digestOf(info.messageImprint.hashAlgorithm.algorithmId, stamped);
  const imprintMatches = !!imprint && equal(new Uint8Array(info.messageImprint.hashedMessage.valueBlock.valueHexView), imprint);
  const check = await checkCms(cms, undefined, stamped);
  return {
    cms, genTime: info.genTime, imprintMatches, valid: imprintMatches && check.digestMatches && check.signatureValid,
    tsa: cms.signer ? distinguishedName(cms.signer.subject) : null,
  };
}

/** The signature-time-stamp token of a CMS signer (RFC 3161 over the signature value), as DER. */
export function signatureTimestampToken(cms: ParsedCms): Uint8Array | null {
  const value = attribute(cms.signerInfo, OIDS.signatureTimeStampToken, true);
  return value ? new Uint8Array(value.toBER(false)) : null;
}

export const signatureValue = (cms: ParsedCms): Uint8Array => new Uint8Array(cms.signerInfo.signature.valueBlock.valueHexView);
