/**
 * The CMS for a PAdES signature (ETSI EN 319 142-1, CAdES detached): SignedData over no content, signed
 * attributes contentType, messageDigest and signingCertificateV2 (no signing-time: the PDF's /M carries the
 * claimed time), the signer's whole certificate chain, one SignerInfo; for B-T also an unsigned
 * signature-time-stamp attribute (RFC 3161 token over the signature value). The same builder makes the local
 * timestamp authority's tokens (encapsulated TSTInfo).
 */
import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { DocumentSigner, TimestampAuthority } from '#shared/ports/services.ts';

export const CMS_OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
} as const;

const der = (block: { toBER(sizeOnly?: boolean): ArrayBuffer }): Uint8Array => new Uint8Array(block.toBER(false));
const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

/**
 * A DER ContentInfo holding a detached SignedData over content whose SHA-256 is `contentDigest`
 * (for a PDF: the bytes the /ByteRange covers), signed by `signer`; with `timestamps`, time-stamped (B-T).
 */
export async function buildCadesSignature(signer: DocumentSigner, contentDigest: Uint8Array, options: { timestamps?: TimestampAuthority } = {}): Promise<Uint8Array> {
  const { timestamps } = options;
  return buildSignedData(signer, {
    contentType: CMS_OID.data,
    contentDigest,
    unsigned: timestamps && (async (signature) => [
      new pkijs.Attribute({ type: CMS_OID.signatureTimeStampToken, values: [asn1js.fromBER(await timestamps.timestamp(sha256(signature))).result] }),
    ]),
  });
}

export interface SignedDataContent {
  contentType: string;
  contentDigest: Uint8Array;
  /** Encapsulated content (a timestamp token's TSTInfo); absent: detached. */
  content?: Uint8Array;
  /** Unsigned attributes made from the signature value (a signature timestamp). */
  unsigned?: (signature: Uint8Array) => Promise<pkijs.Attribute[]>;
}

/** Parsed certificates by their DER: a signer hands out the same chain for every seal, and parsing costs milliseconds. */
const parsed = new WeakMap<Uint8Array, pkijs.Certificate>();
const certificateOf = (der: Uint8Array): pkijs.Certificate => {
  let cert = parsed.get(der);
  if (!cert) parsed.set(der, (cert = pkijs.Certificate.fromBER(der)));
  return cert;
};

export async function buildSignedData(signer: DocumentSigner, what: SignedDataContent): Promise<Uint8Array> {
  const chain = await signer.certificateChain();
  const [signingDer] = chain;
  if (!signingDer) throw new Error('The document signer has no certificate');
  const signingCert = certificateOf(signingDer);
  const attributes = signedAttributes(what.contentDigest, signingDer, signingCert, what.contentType);
  const signature = await signer.signDigest(sha256(signedAttributesToSign(attributes)));
  const unsigned = what.unsigned ? await what.unsigned(signature) : [];
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: signingCert.issuer, serialNumber: signingCert.serialNumber }),
    digestAlgorithm: sha256Algorithm(),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }),
    ...(unsigned.length > 0 ? { unsignedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 1, attributes: unsigned }) } : {}),
    signatureAlgorithm: signerSignatureAlgorithm(signer.algorithm),
    signature: new asn1js.OctetString({ valueHex: signature }),
  });
  // Assembled from DER parts: the certificates go in as they are (pkijs would parse and re-encode each, every seal).
  const signedData = tlv(0x30,
    der(new asn1js.Integer({ value: what.content ? 3 : 1 })),
    DIGEST_ALGORITHMS,
    der(encapsulated(what.contentType, what.content).toSchema()),
    tlv(0xa0, ...chain),
    tlv(0x31, der(signerInfo.toSchema())));
  return tlv(0x30, SIGNED_DATA_OID, tlv(0xa0, signedData));
}

const SIGNED_DATA_OID = der(new asn1js.ObjectIdentifier({ value: CMS_OID.signedData }));
const DIGEST_ALGORITHMS = der(new asn1js.Set({ value: [new pkijs.AlgorithmIdentifier({ algorithmId: CMS_OID.sha256 }).toSchema()] }));

/** One DER element: `tag`, the definite length of `parts` together, then the parts. */
export function tlv(tag: number, ...parts: Uint8Array[]): Uint8Array {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const lengthBytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) lengthBytes.unshift(rest % 256);
  const header = length < 0x80 ? [tag, length] : [tag, 0x80 | lengthBytes.length, ...lengthBytes];
  const out = new Uint8Array(header.length + length);
  out.set(header);
  let at = header.length;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

/**
 * The content, or none (detached). Set after construction: pkijs's constructor splits an OCTET STRING into a
 * constructed one, which BER allows and DER forbids (strict parsers reject such a timestamp token).
 */
function encapsulated(contentType: string, content: Uint8Array | undefined): pkijs.EncapsulatedContentInfo {
  const info = new pkijs.EncapsulatedContentInfo({ eContentType: contentType });
  if (content) info.eContent = new asn1js.OctetString({ valueHex: content });
  return info;
}

/** contentType, messageDigest and signingCertificateV2, in DER SET OF order (by their encodings). */
export function signedAttributes(
  contentDigest: Uint8Array,
  signingCertDer: Uint8Array,
  signingCert = pkijs.Certificate.fromBER(signingCertDer),
  contentType: string = CMS_OID.data,
): pkijs.Attribute[] {
  const attributes = [
    new pkijs.Attribute({ type: CMS_OID.contentType, values: [new asn1js.ObjectIdentifier({ value: contentType })] }),
    new pkijs.Attribute({ type: CMS_OID.messageDigest, values: [new asn1js.OctetString({ valueHex: contentDigest })] }),
    new pkijs.Attribute({ type: CMS_OID.signingCertificateV2, values: [signingCertificateV2(signingCertDer, signingCert)] }),
  ];
  const encoded = new Map(attributes.map((attribute) => [attribute, der(attribute.toSchema())]));
  return attributes.sort((a, b) => Buffer.compare(encoded.get(a) ?? new Uint8Array(), encoded.get(b) ?? new Uint8Array()));
}

/** What the signature covers (RFC 5652 §5.4): the attributes' DER with the [0] IMPLICIT tag as a SET tag. */
export function signedAttributesToSign(attributes: pkijs.Attribute[]): Uint8Array {
  const bytes = der(new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }).toSchema());
  bytes[0] = 0x31; // [0] IMPLICIT (0xA0) -> SET (0x31); lengths and contents are identical
  return bytes;
}

/**
 * SigningCertificateV2 (RFC 5035) with one ESSCertIDv2: the certificate's SHA-256 (the default hash, so
 * hashAlgorithm is omitted as DER requires) and its issuer and serial number.
 */
/** The attribute's value per certificate DER: the same for every seal by one key. */
const signingCertificates = new WeakMap<Uint8Array, asn1js.Sequence>();

function signingCertificateV2(certDer: Uint8Array, cert: pkijs.Certificate): asn1js.Sequence {
  let value = signingCertificates.get(certDer);
  if (!value) signingCertificates.set(certDer, (value = essCertificate(certDer, cert)));
  return value;
}

function essCertificate(certDer: Uint8Array, cert: pkijs.Certificate): asn1js.Sequence {
  const issuerSerial = new asn1js.Sequence({
    value: [
      new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }).toSchema(),
      new asn1js.Integer({ valueHex: cert.serialNumber.valueBlock.valueHexView }),
    ],
  });
  const essCertId = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: sha256(certDer) }), issuerSerial] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertId] })] });
}

/** SHA-256 without parameters (RFC 5754 §2: absent is the preferred encoding). */
const sha256Algorithm = (): pkijs.AlgorithmIdentifier => new pkijs.AlgorithmIdentifier({ algorithmId: CMS_OID.sha256 });

function signerSignatureAlgorithm(algorithm: DocumentSigner['algorithm']): pkijs.AlgorithmIdentifier {
  return algorithm === 'rsa-sha256'
    ? new pkijs.AlgorithmIdentifier({ algorithmId: CMS_OID.rsaEncryption, algorithmParams: new asn1js.Null() })
    : new pkijs.AlgorithmIdentifier({ algorithmId: CMS_OID.ecdsaWithSha256 });
}
