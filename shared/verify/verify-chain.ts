/**
 * Certificate paths for verification (browser and Node: pkijs over WebCrypto): from a signing certificate up to a
 * self-signed root through the certificates the file carries, each signature checked with its issuer's key; which
 * trust anchor the path reaches (the service's CA, a configured root, or none); each certificate's validity at the
 * validation time; and its status in the CRLs and OCSP responses embedded in the file.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export type Trust = 'service' | 'configured' | 'untrusted';

/** SHA-256 fingerprints (lower-case hex) of the roots or intermediates a verifier trusts, by where they come from. */
export interface TrustAnchors {
  service: readonly string[];
  configured: readonly string[];
}

export interface CertificateSummary {
  subject: string;
  issuer: string;
  serialNumber: string;
  sha256: string;
  notBefore: string;
  notAfter: string;
  keyAlgorithm: string;
  keySize: number | null;
}

export interface RevocationFinding {
  /** The certificate's subject. */
  certificate: string;
  source: 'crl' | 'ocsp';
  status: 'good' | 'revoked';
  /** When the CRL or response was issued. */
  issuedAt: string;
  revokedAt: string | null;
}

export interface PathResult {
  path: pkijs.Certificate[];
  summaries: CertificateSummary[];
  /** Whether the path ends in a self-signed certificate (or a trust anchor) with every signature verified. */
  complete: boolean;
  trust: Trust;
  rootSha256: string | null;
}

export const hex = (bytes: ArrayBuffer | Uint8Array): string => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

export async function sha256(bytes: Uint8Array | ArrayBuffer): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes instanceof Uint8Array ? inPlace(bytes) : bytes));
}

/** The same bytes as a view WebCrypto takes: hashed where they lie, not copied (a PDF may be 25 MB). */
export const inPlace = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);

/** A standalone ArrayBuffer with the bytes (WebCrypto and pkijs want ArrayBuffers, not views). */
export const copyOf = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer;

const NAMES: Record<string, string> = { '2.5.4.3': 'CN', '2.5.4.10': 'O', '2.5.4.11': 'OU', '2.5.4.6': 'C', '2.5.4.7': 'L', '2.5.4.8': 'ST', '2.5.4.97': 'organizationIdentifier', '2.5.4.5': 'serialNumber', '1.2.840.113549.1.9.1': 'E' };

const valueText = (tv: pkijs.AttributeTypeAndValue): string => {
  const value = (tv.value.valueBlock as { value?: unknown }).value;
  return typeof value === 'string' ? value : '';
};

export function distinguishedName(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues.map((tv) => `${NAMES[tv.type] ?? tv.type}=${valueText(tv)}`).reverse().join(', ');
}

export function commonName(name: pkijs.RelativeDistinguishedNames): string | null {
  const cn = name.typesAndValues.find((tv) => tv.type === '2.5.4.3');
  return cn ? valueText(cn) : null;
}

export const derOf = (cert: pkijs.Certificate): Uint8Array => new Uint8Array(cert.toSchema(true).toBER(false));

export function keyDescription(cert: pkijs.Certificate): { algorithm: string; size: number | null } {
  const spki = cert.subjectPublicKeyInfo;
  const oid = spki.algorithm.algorithmId;
  if (oid === '1.2.840.113549.1.1.1') {
    const key = spki.parsedKey as pkijs.RSAPublicKey | undefined;
    const modulus = key?.modulus.valueBlock.valueHexView;
    const size = modulus ? (modulus.length - (modulus[0] === 0 ? 1 : 0)) * 8 : null;
    return { algorithm: 'RSA', size };
  }
  if (oid === '1.2.840.10045.2.1') {
    const curve = (spki.algorithm.algorithmParams as asn1js.ObjectIdentifier | undefined)?.valueBlock.toString();
    const sizes: Record<string, number> = { '1.2.840.10045.3.1.7': 256, '1.3.132.0.34': 384, '1.3.132.0.35': 521 };
    return { algorithm: 'ECDSA', size: curve ? sizes[curve] ?? null : null };
  }
  return { algorithm: oid, size: null };
}

export async function summarise(cert: pkijs.Certificate): Promise<CertificateSummary> {
  const key = keyDescription(cert);
  return {
    subject: distinguishedName(cert.subject), issuer: distinguishedName(cert.issuer), serialNumber: hex(cert.serialNumber.valueBlock.valueHexView),
    sha256: hex(await sha256(derOf(cert))), notBefore: cert.notBefore.value.toISOString(), notAfter: cert.notAfter.value.toISOString(),
    keyAlgorithm: key.algorithm, keySize: key.size,
  };
}

export function parseCertificates(ders: readonly Uint8Array[]): pkijs.Certificate[] {
  return ders.flatMap((der) => {
    try {
      return [pkijs.Certificate.fromBER(copyOf(der))];
    } catch {
      return [];
    }
  });
}

async function verifiedBy(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<boolean> {
  if (!cert.issuer.isEqual(issuer.subject)) return false;
  try {
    return await cert.verify(issuer);
  } catch {
    return false;
  }
}

/** From `leaf` upwards through `pool`, each step's signature verified; trust from the first certificate that is an anchor. */
export async function buildPath(leaf: pkijs.Certificate, pool: readonly pkijs.Certificate[], anchors: TrustAnchors): Promise<PathResult> {
  const path = [leaf];
  let complete = false;
  for (let current = leaf, depth = 0; depth < 10; depth++) {
    if (current.subject.isEqual(current.issuer) && (await verifiedBy(current, current))) {
      complete = true;
      break;
    }
    let next: pkijs.Certificate | undefined;
    for (const candidate of pool) {
      if (path.includes(candidate)) continue;
      if (await verifiedBy(current, candidate)) {
        next = candidate;
        break;
      }
    }
    if (!next) break;
    path.push(next);
    current = next;
  }
  const summaries = await Promise.all(path.map(summarise));
  let trust: Trust = 'untrusted';
  let rootSha256: string | null = summaries[summaries.length - 1]?.sha256 ?? null;
  for (const summary of summaries) {
    const kind = anchors.service.includes(summary.sha256) ? 'service' : anchors.configured.includes(summary.sha256) ? 'configured' : null;
    if (kind) {
      trust = kind;
      rootSha256 = summary.sha256;
      complete = true;
      break;
    }
  }
  return { path, summaries, complete, trust, rootSha256 };
}

/** Whether every certificate of the path was valid at `time`: 'ok', or which bound it broke. */
export function validityAt(path: readonly pkijs.Certificate[], time: Date): 'ok' | 'expired' | 'not-yet-valid' {
  for (const cert of path) {
    if (time < cert.notBefore.value) return 'not-yet-valid';
    if (time > cert.notAfter.value) return 'expired';
  }
  return 'ok';
}

/**
 * What the embedded CRLs and OCSP responses say about each certificate of the path but the root: only those whose
 * signature the certificate's issuer (or, for OCSP, a responder it certified) made count.
 */
export async function revocationStatus(path: readonly pkijs.Certificate[], crls: readonly Uint8Array[], ocsps: readonly Uint8Array[]): Promise<RevocationFinding[]> {
  const findings: RevocationFinding[] = [];
  const parsedCrls = crls.flatMap((der) => {
    try {
      return [pkijs.CertificateRevocationList.fromBER(copyOf(der))];
    } catch {
      return [];
    }
  });
  const responses = ocsps.flatMap((der) => {
    try {
      const response = pkijs.OCSPResponse.fromBER(copyOf(der));
      const bytes = response.responseBytes?.response.valueBlock.valueHexView;
      return bytes ? [pkijs.BasicOCSPResponse.fromBER(bytes.slice().buffer)] : [];
    } catch {
      return [];
    }
  });
  for (const [i, cert] of path.entries()) {
    const issuer = path[i + 1];
    if (!issuer) break;
    const subject = distinguishedName(cert.subject);
    for (const crl of parsedCrls) {
      if (!crl.issuer.isEqual(issuer.subject)) continue;
      let signed = false;
      try {
        signed = await crl.verify({ issuerCertificate: issuer });
      } catch {
        signed = false;
      }
      if (!signed) continue;
      const entry = crl.revokedCertificates?.find((r) => r.userCertificate.isEqual(cert.serialNumber));
      findings.push({ certificate: subject, source: 'crl', status: entry ? 'revoked' : 'good', issuedAt: crl.thisUpdate.value.toISOString(), revokedAt: entry ? entry.revocationDate.value.toISOString() : null });
    }
    for (const basic of responses) {
      const finding = await ocspFinding(basic, cert, issuer);
      if (finding) findings.push({ certificate: subject, ...finding });
    }
  }
  return findings;
}

async function ocspFinding(basic: pkijs.BasicOCSPResponse, cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<Omit<RevocationFinding, 'certificate'> | null> {
  const single = basic.tbsResponseData.responses.find((r) => r.certID.serialNumber.isEqual(cert.serialNumber));
  if (!single) return null;
  try {
    if (!single.certID.isEqual(await certIdFor(single.certID, cert, issuer))) return null;
    // A CA may sign its responses itself and leave its certificate out (RFC 6960 §4.2.2.2): the issuer is that signer.
    if (!basic.certs?.length) basic.certs = [issuer];
    if (!(await basic.verify({ trustedCerts: [issuer] }))) return null;
  } catch {
    return null;
  }
  // certStatus: [0] good, [1] revoked (its first element the revocation time), [2] unknown (says nothing)
  const status = single.certStatus as { idBlock?: { tagNumber?: number }; valueBlock?: { value?: unknown[] } } | undefined;
  const tag = status?.idBlock?.tagNumber;
  if (tag !== 0 && tag !== 1) return null;
  const time = tag === 1 ? status?.valueBlock?.value?.[0] : undefined;
  const revokedAt = time instanceof asn1js.GeneralizedTime ? time.toDate().toISOString() : null;
  return { source: 'ocsp', status: tag === 1 ? 'revoked' : 'good', issuedAt: basic.tbsResponseData.producedAt.toISOString(), revokedAt };
}

async function certIdFor(template: pkijs.CertID, cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<pkijs.CertID> {
  const id = new pkijs.CertID();
  const hashes: Record<string, string> = { '1.3.14.3.2.26': 'SHA-1', '2.16.840.1.101.3.4.2.1': 'SHA-256' };
  await id.createForCertificate(cert, { hashAlgorithm: hashes[template.hashAlgorithm.algorithmId] ?? 'SHA-1', issuerCertificate: issuer });
  return id;
}
