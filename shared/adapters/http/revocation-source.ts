/**
 * Revocation data over HTTP, as the CA publishes it: the CRL at the certificate's CRL distribution point, or,
 * for a certificate without one, a response from the OCSP responder its Authority Information Access names.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { RevocationData, RevocationSource } from '#shared/ports/services.ts';
import { RevocationUnavailable } from '#shared/pki/dss.ts';
import { crlUrls } from '#shared/pki/certificate-authority.ts';

const AIA = '1.3.6.1.5.5.7.1.1';
const OCSP_METHOD = '1.3.6.1.5.5.7.48.1';

/** A CRL is fetched once per container for this long: two certificates of one CA share it, and so do seals in a row. */
const CRL_CACHE_MS = 5 * 60_000;

export class HttpRevocationSource implements RevocationSource {
  private readonly crls = new Map<string, { at: number; crl: Promise<Uint8Array | undefined> }>();

  constructor(private readonly timeoutMs = 10_000) {}

  async revocation(certificate: Uint8Array, issuer: Uint8Array, options: { issuedAfter?: Date } = {}): Promise<RevocationData> {
    const { issuedAfter } = options;
    let stale: Date | undefined;
    for (const url of crlUrls(certificate)) {
      let crl = await this.crl(url);
      // a cached CRL older than the signature is no evidence of the status at signing: ask the CA for its newest
      if (crl && issuedAfter && thisUpdate(crl) < issuedAfter) crl = await this.crl(url, true);
      if (!crl) continue;
      if (!issuedAfter || thisUpdate(crl) >= issuedAfter) return { crls: [crl], ocspResponses: [] };
      stale = thisUpdate(crl);
    }
    const responder = ocspUrl(certificate);
    if (!responder) {
      if (stale && issuedAfter) throw new RevocationUnavailable(`The CA's newest CRL (issued ${stale.toISOString()}) predates the signature (revocation data must be issued at or after ${issuedAfter.toISOString()}), and the certificate names no OCSP responder`);
      throw new RevocationUnavailable('The certificate names no reachable CRL and no OCSP responder');
    }
    const request = await ocspRequest(certificate, issuer);
    const response = await this.fetch(responder, { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: request });
    const parsed = pkijs.OCSPResponse.fromBER(response);
    if (parsed.responseStatus.valueBlock.valueDec !== 0) throw new RevocationUnavailable(`The OCSP responder ${responder} answered status ${String(parsed.responseStatus.valueBlock.valueDec)}`);
    const producedAt = producedAtOf(parsed);
    if (issuedAfter && (!producedAt || producedAt < issuedAfter)) {
      throw new RevocationUnavailable(`The OCSP responder ${responder} answered with a response produced ${producedAt?.toISOString() ?? 'at no stated time'}, before the signature (${issuedAfter.toISOString()})`);
    }
    return { crls: [], ocspResponses: [response] };
  }

  private crl(url: string, fresh = false): Promise<Uint8Array | undefined> {
    const cached = this.crls.get(url);
    if (!fresh && cached && Date.now() - cached.at < CRL_CACHE_MS) return cached.crl;
    const crl = this.fetch(url, { method: 'GET' }).then((bytes) => (parses(() => pkijs.CertificateRevocationList.fromBER(bytes)) ? bytes : undefined), () => undefined);
    this.crls.set(url, { at: Date.now(), crl });
    void crl.then((bytes) => { if (!bytes) this.crls.delete(url); }); // a failure is not remembered
    return crl;
  }

  private async fetch(url: string, init: RequestInit): Promise<Uint8Array> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (cause) {
      throw new RevocationUnavailable(`${url} could not be reached`, { cause });
    }
    if (!response.ok) throw new RevocationUnavailable(`${url} answered HTTP ${String(response.status)}`);
    return new Uint8Array(await response.arrayBuffer());
  }
}

const thisUpdate = (crl: Uint8Array): Date => pkijs.CertificateRevocationList.fromBER(crl).thisUpdate.value;

function producedAtOf(response: pkijs.OCSPResponse): Date | undefined {
  const bytes = response.responseBytes?.response.valueBlock.valueHexView;
  if (!bytes) return undefined;
  try {
    return pkijs.BasicOCSPResponse.fromBER(bytes).tbsResponseData.producedAt;
  } catch {
    return undefined;
  }
}

const parses = (parse: () => unknown): boolean => { try { parse(); return true; } catch { return false; } };

function ocspUrl(certificate: Uint8Array): string | undefined {
  const ext = pkijs.Certificate.fromBER(certificate).extensions?.find((e) => e.extnID === AIA);
  if (!ext) return undefined;
  const info = new pkijs.InfoAccess({ schema: asn1js.fromBER(ext.extnValue.valueBlock.valueHexView).result });
  const location = info.accessDescriptions.find((d) => d.accessMethod === OCSP_METHOD)?.accessLocation;
  return location?.type === 6 && typeof location.value === 'string' ? location.value : undefined;
}

async function ocspRequest(certificate: Uint8Array, issuer: Uint8Array): Promise<Uint8Array> {
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(pkijs.Certificate.fromBER(certificate), { hashAlgorithm: 'SHA-1', issuerCertificate: pkijs.Certificate.fromBER(issuer) });
  return new Uint8Array(request.toSchema(true).toBER(false));
}
