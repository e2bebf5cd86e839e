/**
 * RFC 3161 time-stamp protocol, without the transport: the request a client sends, the checks on the response it
 * gets back, and the token a (local) timestamp authority issues. The HTTP adapter and the local responder use these.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { DocumentSigner } from '#shared/ports/services.ts';
import { buildSignedData, CMS_OID } from './cms.ts';

/** The TSA did not answer, or answered with something that is not a timestamp for our digest. Retrying may help. */
export class TimestampUnavailable extends Error {
  readonly retryable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TimestampUnavailable';
  }
}

const sha256Imprint = (digest: Uint8Array): pkijs.MessageImprint =>
  new pkijs.MessageImprint({ hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: CMS_OID.sha256 }), hashedMessage: new asn1js.OctetString({ valueHex: digest }) });

const der = (block: { toBER(sizeOnly?: boolean): ArrayBuffer }): Uint8Array => new Uint8Array(block.toBER(false));

/** A TimeStampReq for a SHA-256 digest, asking for the TSA's certificate in the token. */
export function timestampRequest(digest: Uint8Array, nonce: Uint8Array = freshNonce()): { request: Uint8Array; nonce: Uint8Array } {
  const request = new pkijs.TimeStampReq({ version: 1, messageImprint: sha256Imprint(digest), nonce: new asn1js.Integer({ valueHex: positive(nonce) }), certReq: true });
  return { request: der(request.toSchema()), nonce };
}

/** The token of a TimeStampResp, after checking it was granted and is for `digest` (and `nonce`, when given). */
export function tokenFromResponse(response: Uint8Array, digest: Uint8Array, nonce?: Uint8Array): Uint8Array {
  let parsed: pkijs.TimeStampResp;
  try {
    parsed = pkijs.TimeStampResp.fromBER(response);
  } catch (cause) {
    throw new TimestampUnavailable('The timestamp authority answered with something that is not a TimeStampResp', { cause });
  }
  const status = parsed.status.status;
  if ((status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) || !parsed.timeStampToken) {
    const text = parsed.status.statusStrings?.map((s) => s.valueBlock.value).join('; ') ?? '';
    throw new TimestampUnavailable(`The timestamp authority refused the request (status ${String(status)}${text ? `: ${text}` : ''})`);
  }
  const info = tstInfoOf(parsed.timeStampToken);
  if (Buffer.compare(Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView), Buffer.from(digest)) !== 0) {
    throw new TimestampUnavailable('The timestamp authority stamped a different digest');
  }
  if (nonce && info.nonce && Buffer.compare(Buffer.from(info.nonce.valueBlock.valueHexView), Buffer.from(positive(nonce))) !== 0) {
    throw new TimestampUnavailable('The timestamp authority answered another request (nonce mismatch)');
  }
  return der(parsed.timeStampToken.toSchema());
}

/** The TSTInfo inside a token (ContentInfo of a SignedData). */
export function tstInfoOf(token: pkijs.ContentInfo | Uint8Array): pkijs.TSTInfo {
  const contentInfo = token instanceof Uint8Array ? pkijs.ContentInfo.fromBER(token) : token;
  const signed = new pkijs.SignedData({ schema: contentInfo.content });
  const content = signed.encapContentInfo.eContent;
  if (signed.encapContentInfo.eContentType !== CMS_OID.tstInfo || !content) throw new TimestampUnavailable('The token does not hold a TSTInfo');
  return pkijs.TSTInfo.fromBER(content.getValue()); // getValue(): the octets also when pkijs encoded them in constructed form
}

/** The certificates a token carries (the TSA's, and whatever chain it sent along). */
export function tokenCertificates(token: Uint8Array): Uint8Array[] {
  const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(token).content });
  return (signed.certificates ?? []).flatMap((c) => (c instanceof pkijs.Certificate ? [der(c.toSchema())] : []));
}

export interface TokenRequest {
  digest: Uint8Array;
  nonce?: Uint8Array;
  time: Date;
  /** A policy OID of the authority's. */
  policy: string;
  /** The authority's certificate: its subject is named in the token (TSTInfo.tsa). */
  certificate: Uint8Array;
  /** How far genTime may be from the true time (TSTInfo.accuracy). */
  accuracySeconds: number;
}

/** Issues a token as a timestamp authority: TSTInfo signed with `signer` (whose certificate has EKU timeStamping). */
export async function issueTimestampToken(signer: DocumentSigner, request: TokenRequest): Promise<Uint8Array> {
  const info = new pkijs.TSTInfo({
    version: 1,
    policy: request.policy,
    messageImprint: sha256Imprint(request.digest),
    serialNumber: new asn1js.Integer({ valueHex: positive(randomBytes(16)) }),
    genTime: new Date(Math.floor(request.time.getTime() / 1000) * 1000),
    accuracy: new pkijs.Accuracy({ seconds: request.accuracySeconds }),
    tsa: new pkijs.GeneralName({ type: 4, value: pkijs.Certificate.fromBER(request.certificate).subject }),
    // `ordering` is left out: its DEFAULT is false, and DER omits a default value
    ...(request.nonce ? { nonce: new asn1js.Integer({ valueHex: positive(request.nonce) }) } : {}),
  });
  const content = der(info.toSchema());
  return buildSignedData(signer, { contentType: CMS_OID.tstInfo, content, contentDigest: new Uint8Array(createHash('sha256').update(content).digest()) });
}

/** Parses a TimeStampReq (for the local responder). */
export function parseTimestampRequest(bytes: Uint8Array): { digest: Uint8Array; nonce?: Uint8Array } {
  const request = pkijs.TimeStampReq.fromBER(bytes);
  if (request.messageImprint.hashAlgorithm.algorithmId !== CMS_OID.sha256) throw new Error('Only SHA-256 imprints are supported');
  return { digest: new Uint8Array(request.messageImprint.hashedMessage.valueBlock.valueHexView), ...(request.nonce ? { nonce: new Uint8Array(request.nonce.valueBlock.valueHexView) } : {}) };
}

/** A TimeStampResp: granted with the token, or rejected with a reason. */
export function timestampResponse(token: Uint8Array | undefined, failure?: string): Uint8Array {
  const status = new pkijs.PKIStatusInfo({
    status: token ? pkijs.PKIStatus.granted : pkijs.PKIStatus.rejection,
    ...(failure ? { statusStrings: [new asn1js.Utf8String({ value: failure })] } : {}),
  });
  const response = new pkijs.TimeStampResp({ status, ...(token ? { timeStampToken: pkijs.ContentInfo.fromBER(token) } : {}) });
  return der(response.toSchema());
}

/** Eight random bytes that are already a minimal positive INTEGER (a TSA re-encodes the nonce it echoes). */
function freshNonce(): Uint8Array {
  const nonce = new Uint8Array(randomBytes(8));
  nonce[0] = ((nonce[0] ?? 0) & 0x7f) | 0x01;
  return nonce;
}

/** A positive DER INTEGER's bytes: a leading 0x00 when the high bit is set. */
function positive(bytes: Uint8Array): Uint8Array {
  return (bytes[0] ?? 0) & 0x80 ? new Uint8Array([0, ...bytes]) : bytes;
}
