/**
 * Verifies every signature and document timestamp of a PDF (browser and Node): integrity over the /ByteRange, the
 * CMS signature, the certificate path to a trust anchor, timestamps (the signature timestamp's imprint over the
 * signature value, the document timestamp's over its range, each TSA's path), the embedded CRLs and OCSP responses at
 * the validation time, the changes made after each signature, and the PAdES level reached.
 *
 *   const report = await verifyPdf(bytes, { anchors: { service: [rootSha256], configured: [] } });
 */
import { PDFName, type PDFDocument } from 'pdf-lib';
import type * as pkijs from 'pkijs';
import { buildPath, commonName, distinguishedName, hex, keyDescription, parseCertificates, revocationStatus, sha256, validityAt, type PathResult, type TrustAnchors } from './verify-chain.ts';
import { loadRevisions, type Revisions } from './pdf-revisions.ts';
import { changesBetween, coveredBytes, loadRevision, looksLikePdf, parsePdf, type ParsedPdf, type PdfSignature } from './verify-pdf.ts';
import { overall, type Indication, type PadesLevel, type ServiceRecord, type SignatureReport, type SubIndication, type VerificationReport } from './verify-report.ts';
import { sha256RangesInOnePass, type Range } from './wasm-digests.ts';
import { checkCms, checkTimestamp, digestName, parseCms, signatureTimestampToken, signatureValue, type Checked, type TimestampCheck } from './verify-timestamp.ts';

export interface VerifyOptions {
  anchors?: TrustAnchors;
  /** The trusted roots' certificates (DER), for a signature that leaves its root out of the file. */
  anchorCertificates?: readonly Uint8Array[];
  /** The verification time (defaults to now). */
  now?: Date;
  /** What the service says about this file's hash, when asked. */
  service?: ServiceRecord | null;
  /**
   * SHA-256 of ranges of `bytes`, each a list of [start, end) pieces: the whole file and each signature's /ByteRange.
   * Default one pass of hash-wasm's SHA-256 over the prefix they share (wasm-digests.ts), else WebCrypto one range at a
   * time; Node passes its own crypto's (node-digests.ts).
   */
  sha256Ranges?: (bytes: Uint8Array, ranges: Range[]) => Promise<Uint8Array[]>;
}

export type { Range };

/** One pass over the file where WebAssembly runs, else WebCrypto. */
const defaultRanges = async (bytes: Uint8Array, ranges: Range[]): Promise<Uint8Array[]> =>
  (await sha256RangesInOnePass(bytes, ranges)) ?? webCryptoRanges(bytes, ranges);

/** WebCrypto hashes no stream: a range of two pieces is joined first. */
export async function webCryptoRanges(bytes: Uint8Array, ranges: Range[]): Promise<Uint8Array[]> {
  const digests: Uint8Array[] = [];
  for (const pieces of ranges) {
    const [only] = pieces;
    digests.push(await sha256(pieces.length === 1 && only ? bytes.subarray(only[0], only[1]) : join(bytes, pieces)));
  }
  return digests;
}

/** The default hashing, but the whole file's digest taken as known (the /verify page hashed it for the service lookup). */
export function knowingFileDigest(fileDigest: Uint8Array): NonNullable<VerifyOptions['sha256Ranges']> {
  return async (bytes, ranges) => {
    const whole = (pieces: Range) => pieces.length === 1 && pieces[0]?.[0] === 0 && pieces[0][1] === bytes.length;
    const others = await defaultRanges(bytes, ranges.filter((pieces) => !whole(pieces)));
    return ranges.map((pieces) => (whole(pieces) ? fileDigest : others.shift() ?? new Uint8Array()));
  };
}

function join(bytes: Uint8Array, pieces: Range): Uint8Array {
  const out = new Uint8Array(pieces.reduce((sum, [start, end]) => sum + end - start, 0));
  let at = 0;
  for (const [start, end] of pieces) { out.set(bytes.subarray(start, end), at); at += end - start; }
  return out;
}

const piecesOf = ([a, b, c, d]: PdfSignature['byteRange']): Range => [[a, a + b], [c, c + d]];

interface Context {
  bytes: Uint8Array;
  parsed: ParsedPdf;
  final: PDFDocument;
  /** The final document's parse, which also gives the earlier revisions it can tell exactly. */
  parse: Revisions;
  anchors: TrustAnchors;
  now: Date;
  revisions: Map<number, Promise<PDFDocument>>;
  /** Each well-formed signature's covered bytes, with their SHA-256. */
  covered: Map<PdfSignature, Checked>;
  /** Certificates the file carries anywhere (CMS, timestamp tokens, DSS): where paths are built from. */
  pool: pkijs.Certificate[];
  crls: Uint8Array[];
}

export async function verifyPdf(bytes: Uint8Array, options: VerifyOptions = {}): Promise<VerificationReport> {
  const now = options.now ?? new Date();
  const hashRanges = options.sha256Ranges ?? defaultRanges;
  const whole: Range = [[0, bytes.length]];
  const baseOf = (digest: Uint8Array | undefined) => ({ sha256: hex(digest ?? new Uint8Array()), size: bytes.length, verifiedAt: now.toISOString(), service: options.service ?? null });
  const failed = async (error: string): Promise<VerificationReport> =>
    ({ ...baseOf((await hashRanges(bytes, [whole]))[0]), indication: 'TOTAL_FAILED', subIndication: 'FORMAT_FAILURE', signatures: [], error });
  if (!looksLikePdf(bytes)) return failed('This file is not a PDF.');
  let loaded: { parse: Revisions; parsed: ParsedPdf } | string;
  try {
    const parse = await loadRevisions(bytes);
    loaded = { parse, parsed: parsePdf(bytes, parse.final) };
  } catch (error) {
    loaded = `This PDF cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof loaded === 'string') return failed(loaded);
  const { parse, parsed } = loaded;
  // The file and every signature's range in one call: they share nearly all their bytes.
  const ranged = parsed.signatures.filter((s) => !s.rangeProblem);
  const [fileDigest, ...rangeDigests] = await hashRanges(bytes, [whole, ...ranged.map((s) => piecesOf(s.byteRange))]);
  const base = baseOf(fileDigest);
  const covered = new Map(ranged.map((s, i): [PdfSignature, Checked] => [s, { sha256: rangeDigests[i] ?? new Uint8Array(), bytes: () => coveredBytes(bytes, s.byteRange) }]));
  const context: Context = {
    bytes, parsed, final: parse.final, parse, anchors: options.anchors ?? { service: [], configured: [] }, now, revisions: new Map(), covered,
    pool: parseCertificates([...(parsed.dss?.certs ?? []), ...(options.anchorCertificates ?? [])]), crls: [...(parsed.dss?.crls ?? [])],
  };
  for (const signature of parsed.signatures) {
    const cms = parseCms(signature.contents);
    if (!cms) continue;
    context.pool.push(...cms.certificates);
    context.crls.push(...cms.crls);
    const token = signature.documentTimestamp ? null : signatureTimestampToken(cms);
    const tokenCms = token && parseCms(token);
    if (tokenCms) context.pool.push(...tokenCms.certificates);
  }
  const timestamps = new Map<PdfSignature, SignatureReport>();
  const signatures: SignatureReport[] = [];
  // Document timestamps first: they give the earlier signatures their proof of existence.
  for (const signature of parsed.signatures.filter((s) => s.documentTimestamp)) timestamps.set(signature, await verifyDocumentTimestamp(context, signature));
  for (const [i, signature] of parsed.signatures.entries()) {
    const report = timestamps.get(signature) ?? (await verifySignature(context, signature, timestamps));
    report.index = i + 1;
    report.modifiedAfter = await modificationsAfter(context, signature);
    applyModifications(report);
    signatures.push(report);
  }
  return { ...base, ...overall(signatures), signatures, error: null };
}

function blank(signature: PdfSignature, bytes: Uint8Array, now: Date): SignatureReport {
  return {
    index: 0, kind: signature.documentTimestamp ? 'document-timestamp' : 'signature', field: signature.field, indication: 'TOTAL_PASSED', subIndication: null,
    reasons: [], subFilter: signature.subFilter, padesLevel: null, intact: false, byteRange: signature.byteRange,
    coversWholeFile: signature.revisionEnd === bytes.length, modifiedAfter: [], signer: null, signerCommonName: null, issuer: null, chain: [],
    rootSha256: null, trust: 'untrusted', claimedTime: signature.claimedTime, timestampTime: null, tsa: null, timestampTrust: null,
    revocationEmbedded: [], digestAlgorithm: null, signatureAlgorithm: null, keyAlgorithm: null, keySize: null, validationTime: now.toISOString(), warnings: [],
  };
}

const verdict = (report: SignatureReport, indication: Indication, subIndication: SubIndication, reason: string): SignatureReport => {
  if (report.indication === 'TOTAL_FAILED' || (report.indication === 'INDETERMINATE' && indication !== 'TOTAL_FAILED')) {
    report.reasons.push(reason);
    return report;
  }
  report.indication = indication;
  report.subIndication = subIndication;
  report.reasons.unshift(reason);
  return report;
};

/**
 * Path, trust, validity and revocation of `leaf`, written into `report`. A timestamp's authority is checked at the
 * token's time; a signer at the verification time, its proof of existence (`proof`) deciding what an expiry means.
 */
async function checkCertificates(context: Context, report: SignatureReport, leaf: pkijs.Certificate, checked: { timestampAt: Date } | { proof: Date | null }): Promise<PathResult> {
  const path = await buildPath(leaf, context.pool, context.anchors);
  const at = 'timestampAt' in checked ? checked.timestampAt : checked.proof ?? context.now;
  report.chain = path.summaries;
  report.trust = path.complete ? path.trust : 'untrusted';
  report.rootSha256 = path.rootSha256;
  report.validationTime = at.toISOString();
  report.revocationEmbedded = await revocationStatus(path.path, context.crls, context.parsed.dss?.ocsps ?? []);
  if (!path.complete) verdict(report, 'INDETERMINATE', 'NO_CERTIFICATE_CHAIN_FOUND', 'The certificate chain is incomplete: an issuer is missing from the file.');
  else if (path.trust === 'untrusted') verdict(report, 'INDETERMINATE', 'NO_CERTIFICATE_CHAIN_FOUND', 'The certificate chain ends at a root this verifier does not trust.');
  const revoked = report.revocationEmbedded.find((f) => f.status === 'revoked' && (!f.revokedAt || Date.parse(f.revokedAt) <= at.getTime()));
  if (revoked) verdict(report, 'TOTAL_FAILED', 'REVOKED', `The certificate of ${revoked.certificate} was revoked ${revoked.revokedAt ? `on ${revoked.revokedAt}, ` : ''}before the ${'proof' in checked && checked.proof ? 'signature was timestamped' : 'validation time'}.`);
  const withoutData = path.path.slice(0, -1).filter((cert) => !report.revocationEmbedded.some((f) => f.certificate === distinguishedName(cert.subject)));
  const unchecked = withoutData.map((c) => distinguishedName(c.subject)).join('; ');
  if ('timestampAt' in checked) {
    const validity = validityAt(path.path, at);
    if (validity === 'expired') verdict(report, 'INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE', "The timestamp authority's certificate had expired when the timestamp was made.");
    if (validity === 'not-yet-valid') verdict(report, 'INDETERMINATE', 'NOT_YET_VALID', "The timestamp authority's certificate was not yet valid when the timestamp was made.");
    // The newest timestamp cannot carry its own authority's revocation data: the DSS that would hold it comes first.
    if (withoutData.length > 0) report.warnings.push(`No revocation data is embedded for ${unchecked}: revocation was not checked.`);
    return path;
  }
  signerTimes(context, report, path, checked.proof, unchecked);
  return path;
}

/**
 * ETSI EN 319 102-1 for the signer's path: valid now, it needs revocation data (none: TRY_LATER, since this verifier
 * never fetches any); expired now, it passes only with a proof of existence inside its validity and revocation data
 * issued at or after that proof (the certificate was not revoked while it was valid), else OUT_OF_BOUNDS_NO_POE.
 */
function signerTimes(context: Context, report: SignatureReport, path: PathResult, proof: Date | null, unchecked: string): void {
  if (proof && validityAt(path.path, proof) === 'not-yet-valid') {
    verdict(report, 'INDETERMINATE', 'NOT_YET_VALID', 'A certificate was not yet valid when the signature was timestamped.');
    return;
  }
  const now = validityAt(path.path, context.now);
  if (now === 'not-yet-valid') verdict(report, 'INDETERMINATE', 'NOT_YET_VALID', 'A certificate is not yet valid at the validation time.');
  else if (now === 'expired') {
    const fresh = proof && path.path.slice(0, -1).every((cert) => report.revocationEmbedded.some((f) => f.certificate === distinguishedName(cert.subject) && f.status === 'good' && Date.parse(f.issuedAt) >= proof.getTime()));
    if (!proof) verdict(report, 'INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE', 'A certificate has expired and no timestamp proves the signature existed before.');
    else if (validityAt(path.path, proof) === 'expired') verdict(report, 'INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE', 'A certificate had expired when the signature was timestamped.');
    else if (!fresh) verdict(report, 'INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE', 'A certificate has expired since the signature was timestamped, and no revocation data issued after the timestamp shows it was not revoked while it was valid.');
    else report.warnings.push('A certificate has expired since; the timestamp and the embedded revocation data show the signature was made while it was valid and not revoked.');
  } else if (unchecked) {
    verdict(report, 'INDETERMINATE', 'TRY_LATER', `No revocation data is embedded for ${unchecked}, and this verifier fetches none: whether it was revoked cannot be told from the file.`);
  }
}

async function verifyDocumentTimestamp(context: Context, signature: PdfSignature): Promise<SignatureReport> {
  const report = blank(signature, context.bytes, context.now);
  if (signature.rangeProblem) return verdict(report, 'TOTAL_FAILED', 'FORMAT_FAILURE', `The signed range is malformed: ${signature.rangeProblem}.`);
  const check = await checkTimestamp(signature.contents, context.covered.get(signature) ?? coveredBytes(context.bytes, signature.byteRange));
  if (!check) return verdict(report, 'TOTAL_FAILED', 'FORMAT_FAILURE', 'The document timestamp is not a readable RFC 3161 token.');
  describeTimestamp(report, check);
  report.intact = check.imprintMatches;
  report.digestAlgorithm = digestName(check.cms.signerInfo.digestAlgorithm.algorithmId);
  if (!check.imprintMatches) return verdict(report, 'TOTAL_FAILED', 'HASH_FAILURE', 'The bytes this timestamp covers were changed after it was made.');
  if (!check.valid) return verdict(report, 'TOTAL_FAILED', 'SIG_CRYPTO_FAILURE', "The timestamp authority's signature does not verify.");
  if (!check.cms.signer) return verdict(report, 'INDETERMINATE', 'NO_SIGNING_CERTIFICATE_FOUND', "The timestamp authority's certificate is not in the token.");
  const path = await checkCertificates(context, report, check.cms.signer, { timestampAt: check.genTime });
  report.timestampTrust = report.trust;
  describeSigner(report, path);
  return report;
}

function describeTimestamp(report: SignatureReport, check: TimestampCheck): void {
  report.timestampTime = check.genTime.toISOString();
  report.tsa = check.tsa;
}

function describeSigner(report: SignatureReport, path: PathResult): void {
  const leaf = path.path[0];
  if (!leaf) return;
  report.signer = distinguishedName(leaf.subject);
  report.signerCommonName = commonName(leaf.subject);
  report.issuer = distinguishedName(leaf.issuer);
  const key = keyDescription(leaf);
  report.keyAlgorithm = key.algorithm;
  report.keySize = key.size;
}

async function verifySignature(context: Context, signature: PdfSignature, documentTimestamps: Map<PdfSignature, SignatureReport>): Promise<SignatureReport> {
  const report = blank(signature, context.bytes, context.now);
  if (signature.rangeProblem) return verdict(report, 'TOTAL_FAILED', 'FORMAT_FAILURE', `The signed range is malformed: ${signature.rangeProblem}.`);
  const cms = parseCms(signature.contents);
  if (!cms) return verdict(report, 'TOTAL_FAILED', 'FORMAT_FAILURE', 'The signature value is not a readable CMS signature.');
  const check = await checkCms(cms, context.covered.get(signature) ?? coveredBytes(context.bytes, signature.byteRange));
  report.intact = check.digestMatches;
  report.digestAlgorithm = check.digestAlgorithm;
  report.signatureAlgorithm = check.signatureAlgorithm;
  report.claimedTime ??= check.signingTime?.toISOString() ?? null;
  if (!check.digestMatches) return verdict(report, 'TOTAL_FAILED', 'HASH_FAILURE', 'The signed bytes were changed after signing: the document is not what was signed.');
  if (!cms.signer) return verdict(report, 'INDETERMINATE', 'NO_SIGNING_CERTIFICATE_FOUND', "The signer's certificate is not in the signature.");
  if (!check.signatureValid) return verdict(report, 'TOTAL_FAILED', 'SIG_CRYPTO_FAILURE', "The signature value does not verify with the signer's key.");
  // Proof of existence: the signature timestamp, else the earliest document timestamp covering the signature.
  let proof: Date | null = null;
  const token = signatureTimestampToken(cms);
  if (token) {
    const stamp = await checkTimestamp(token, signatureValue(cms));
    if (stamp) {
      describeTimestamp(report, stamp);
      const tsaReport = blank(signature, context.bytes, context.now);
      if (stamp.valid && stamp.cms.signer) await checkCertificates(context, tsaReport, stamp.cms.signer, { timestampAt: stamp.genTime });
      report.timestampTrust = stamp.valid && stamp.cms.signer ? tsaReport.trust : 'untrusted';
      if (!stamp.valid) report.warnings.push('The signature timestamp does not verify: it is ignored.');
      else if (tsaReport.indication !== 'TOTAL_PASSED') report.warnings.push(`The signature timestamp is not trusted (${tsaReport.reasons[0] ?? ''}): it is ignored.`);
      else proof = stamp.genTime;
    }
  }
  const covering = [...documentTimestamps].filter(([stamp, result]) => stamp.revisionEnd > signature.revisionEnd && result.indication === 'TOTAL_PASSED' && result.timestampTime);
  if (!proof && covering[0]) proof = new Date(covering[0][1].timestampTime ?? '');
  const path = await checkCertificates(context, report, cms.signer, { proof });
  describeSigner(report, path);
  if (report.trust === 'service') report.kind = 'seal';
  report.padesLevel = await levelOf(context, signature, check.hasSigningCertificateAttribute, proof !== null, report, covering.map(([stamp]) => stamp));
  return report;
}

/** B-B with the signing-certificate attribute; B-T once time-stamped; B-LT with revocation data for the path; B-LTA with a document timestamp over it. */
async function levelOf(context: Context, signature: PdfSignature, signingCertificate: boolean, timestamped: boolean, report: SignatureReport, stamps: PdfSignature[]): Promise<PadesLevel | null> {
  if (signature.subFilter !== 'ETSI.CAdES.detached' || !signingCertificate) return null;
  if (!timestamped) return 'B-B';
  const nonRoot = report.chain.slice(0, -1);
  const longTerm = context.parsed.dss !== null && nonRoot.every((cert) => report.revocationEmbedded.some((f) => f.certificate === cert.subject));
  if (!longTerm) return 'B-T';
  for (const stamp of stamps) {
    if ((await revision(context, stamp.revisionEnd)).catalog.has(PDFName.of('DSS'))) return 'B-LTA';
  }
  return 'B-LT';
}

function revision(context: Context, end: number): Promise<PDFDocument> {
  let loaded = context.revisions.get(end);
  if (!loaded) {
    const parsed = context.parse.at(end); // the whole file, or a revision the file's parse tells exactly
    context.revisions.set(end, (loaded = parsed ? Promise.resolve(parsed) : loadRevision(context.bytes.subarray(0, end))));
  }
  return loaded;
}

/**
 * The changes after `signature`. A later approval signature vouches for everything up to its own revision (listed, all
 * acceptable); what came after that revision is judged on its own (DSS, document timestamps), as for that signature.
 */
async function modificationsAfter(context: Context, signature: PdfSignature): Promise<SignatureReport['modifiedAfter']> {
  if (signature.rangeProblem || signature.revisionEnd >= context.bytes.length) return [];
  const before = await revision(context, signature.revisionEnd);
  const later = context.parsed.signatures.filter((s) => !s.documentTimestamp && !s.rangeProblem && s.revisionEnd > signature.revisionEnd).at(-1);
  if (!later) return changesBetween(before, context.final, () => false);
  const laterDoc = await revision(context, later.revisionEnd);
  const since = later.revisionEnd >= context.bytes.length ? [] : changesBetween(laterDoc, context.final, () => false);
  const changedSince = new Set(since.map((m) => m.object));
  return [...changesBetween(before, laterDoc, () => true).filter((m) => !changedSince.has(m.object)), ...since];
}

function applyModifications(report: SignatureReport): void {
  const unacceptable = report.modifiedAfter.filter((m) => !m.acceptable);
  if (unacceptable.length === 0) return;
  const what = [...new Set(unacceptable.map((m) => m.description))].join(', ');
  verdict(report, 'TOTAL_FAILED', 'SIG_CONSTRAINTS_FAILURE', `The file was changed after this signature, and not only by validation data or timestamps: ${what}.`);
}
