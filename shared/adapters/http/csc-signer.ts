/**
 * The seal key at a trust service provider, through the Cloud Signature Consortium API v2: a remote qualified seal
 * creation device signs the SHA-256 digest of the seal's signed attributes. Per seal: an OAuth2 client-credentials
 * token (kept until it expires), the credential's certificate chain and key (`credentials/info`, read again once a
 * minute old on the service clock, like the KMS seal's chain), a SAD for exactly that digest (`credentials/authorize`
 * with the PIN / OTP the credential asks for), then `signatures/signHash`. The returned signature is checked against
 * the credential's certificate before it is handed back to be embedded. Every call has its own time limit; any failure
 * throws CscError, and the seal's retries (then the seal sweep) try again later.
 */
import { X509Certificate } from 'node:crypto';
import type { Clock, DocumentSigner } from '#shared/ports/services.ts';
import { cachedOnClock } from '#shared/adapters/seal-chain-cache.ts';
import { algorithmOfCertificate } from '#shared/adapters/aws/seal-certificate.ts';
import { checkDigestSignature } from './digest-signature.ts';

/** The limit of each call to the provider. */
export const CSC_TIMEOUT_MS = 15_000;

export const CSC_OID = {
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecPublicKey: '1.2.840.10045.2.1',
  p256: '1.2.840.10045.3.1.7',
} as const;

export interface CscSettings {
  /** The API root, under which `/oauth2/token`, `/credentials/*` and `/signatures/signHash` are. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  credentialId: string;
  /** Sent when the credential's authorization asks for a PIN (`auth.objects` id `PIN`). */
  pin?: string | null;
  /** Sent when it asks for an OTP. */
  otp?: string | null;
}

export interface CscOptions {
  clock: Clock;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** What went wrong, without any secret: the endpoint, the HTTP status and the provider's own error code. */
export class CscError extends Error {
  constructor(message: string, readonly status: number | null = null, readonly error: string | null = null) {
    super(message);
    this.name = 'CscError';
  }
}

/** One credential as `credentials/info` describes it (CSC v2, with certificates=chain, certInfo and authInfo). */
export interface CscCredentialInfo {
  key?: { status?: string; algo?: string[]; len?: number; curve?: string };
  cert?: { status?: string; certificates?: string[]; subjectDN?: string; validFrom?: string; validTo?: string };
  auth?: { mode?: 'implicit' | 'explicit' | 'oauth2code'; objects?: { type?: string; id?: string }[] };
  SCAL?: string;
  multisign?: number;
}

interface Credential {
  chain: Uint8Array[];
  certificate: X509Certificate;
  algorithm: DocumentSigner['algorithm'];
  needs: { pin: boolean; otp: boolean };
}

/** The margin before a token's stated expiry at which it is no longer used. */
const TOKEN_MARGIN_MS = 30_000;

export class CscDocumentSigner implements DocumentSigner {
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;
  private readonly clock: Clock;
  private readonly credential: () => Promise<Credential>;
  private current: Credential | undefined;
  private token: { value: string; until: number } | undefined;
  private listed = false;

  constructor(private readonly settings: CscSettings, options: CscOptions) {
    this.timeoutMs = options.timeoutMs ?? CSC_TIMEOUT_MS;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.clock = options.clock;
    this.credential = cachedOnClock(options.clock, () => this.readCredential());
  }

  /** The credential's key algorithm: known once its chain has been read (a seal asks for the chain first). */
  get algorithm(): DocumentSigner['algorithm'] {
    if (!this.current) throw new Error('The CSC credential is not loaded yet: ask for its certificate chain first');
    return this.current.algorithm;
  }

  async certificateChain(): Promise<Uint8Array[]> {
    this.current = await this.credential();
    return this.current.chain;
  }

  async signDigest(digest: Uint8Array): Promise<Uint8Array> {
    if (digest.length !== 32) throw new Error('Expected a 32-byte SHA-256 digest');
    // Checked against the chain this seal embeds (read just before), not one the provider may have renewed since.
    const credential = this.current ?? await this.credential();
    const hash = Buffer.from(digest).toString('base64');
    const { SAD } = await this.call<{ SAD?: string }>('credentials/authorize', {
      credentialID: this.settings.credentialId, numSignatures: 1, hashes: [hash], hashAlgorithmOID: CSC_OID.sha256,
      ...authData(this.settings, credential.needs),
    });
    if (!SAD) throw new CscError('credentials/authorize returned no SAD');
    const { signatures } = await this.call<{ signatures?: string[] }>('signatures/signHash', {
      credentialID: this.settings.credentialId, SAD, hashes: [hash], hashAlgorithmOID: CSC_OID.sha256,
      signAlgo: credential.algorithm === 'rsa-sha256' ? CSC_OID.sha256WithRsa : CSC_OID.ecdsaWithSha256,
    });
    const [signature] = signatures ?? [];
    if (!signature || signatures?.length !== 1) throw new CscError(`signatures/signHash returned ${String(signatures?.length ?? 0)} signatures for one hash`);
    const checked = checkDigestSignature(credential.certificate, credential.algorithm, digest, Buffer.from(signature, 'base64'));
    if (!checked) throw new CscError(`The signature from signatures/signHash does not verify against the certificate of credential ${this.settings.credentialId}: not embedded`);
    return checked;
  }

  /** The first read also checks that the client has the credential, so a wrong CSC_CREDENTIAL_ID says which it has. */
  private async readCredential(): Promise<Credential> {
    if (!this.listed) {
      const { credentialIDs } = await this.call<{ credentialIDs?: unknown }>('credentials/list', { maxResults: 100 });
      const ids = Array.isArray(credentialIDs) ? credentialIDs.filter((id): id is string => typeof id === 'string') : [];
      if (!ids.includes(this.settings.credentialId)) throw new CscError(`Credential ${this.settings.credentialId} is not among this client's credentials (${ids.join(', ') || 'none'})`);
      this.listed = true;
    }
    const info = await this.call<CscCredentialInfo>('credentials/info', {
      credentialID: this.settings.credentialId, certificates: 'chain', certInfo: true, authInfo: true,
    });
    return credentialOf(this.settings.credentialId, info);
  }

  /** An access token, asked for again shortly before it expires (or after the provider refused it). */
  private async accessToken(): Promise<string> {
    const now = this.clock.now().getTime();
    if (this.token && now < this.token.until) return this.token.value;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: this.settings.clientId, client_secret: this.settings.clientSecret });
    const body = await this.request<{ access_token?: string; expires_in?: number }>('oauth2/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(),
    });
    if (!body.access_token) throw new CscError('oauth2/token returned no access_token');
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    this.token = { value: body.access_token, until: now + Math.max(0, lifetimeMs - TOKEN_MARGIN_MS) };
    return this.token.value;
  }

  private async call<T>(path: string, json: object): Promise<T> {
    const token = await this.accessToken();
    try {
      return await this.request<T>(path, { headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(json) });
    } catch (error) {
      if (error instanceof CscError && error.status === 401) this.token = undefined;
      throw error;
    }
  }

  private async request<T>(path: string, init: { headers: Record<string, string>; body: string }): Promise<T> {
    const url = `${this.settings.baseUrl.replace(/\/+$/, '')}/${path}`;
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error' });
      text = await response.text();
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new CscError(`${path} did not answer within ${String(this.timeoutMs)} ms`);
      throw new CscError(`${path} failed: ${(error as Error).message}`);
    }
    let body: unknown;
    try { body = text ? JSON.parse(text) : {}; } catch { body = undefined; }
    if (!response.ok) {
      const { error, error_description: description } = (body ?? {}) as { error?: unknown; error_description?: unknown };
      const code = typeof error === 'string' ? error : null;
      throw new CscError(`${path} answered ${String(response.status)}${code ? ` ${code}` : ''}${typeof description === 'string' ? `: ${description.slice(0, 200)}` : ''}`, response.status, code);
    }
    if (!body || typeof body !== 'object') throw new CscError(`${path} answered ${String(response.status)} without a JSON object`, response.status);
    return body as T;
  }
}

/** The credential usable for a seal: enabled key of a kind the seal signs with, valid certificate, authorization without a user. */
export function credentialOf(credentialId: string, info: CscCredentialInfo): Credential {
  const refuse = (why: string) => new CscError(`Credential ${credentialId} cannot seal: ${why}`);
  if (info.key?.status && info.key.status !== 'enabled') throw refuse(`its key is ${info.key.status}`);
  if (info.cert?.status && info.cert.status !== 'valid') throw refuse(`its certificate is ${info.cert.status}`);
  const chain = (info.cert?.certificates ?? []).map((b64) => new Uint8Array(Buffer.from(b64, 'base64')));
  const [first] = chain;
  if (!first) throw refuse('credentials/info returned no certificate');
  let certificate: X509Certificate;
  let algorithm: DocumentSigner['algorithm'];
  try {
    certificate = new X509Certificate(first);
    algorithm = algorithmOfCertificate(first);
  } catch (error) {
    throw refuse(`its certificate is not usable (${(error as Error).message})`);
  }
  const algos = info.key?.algo ?? [];
  const expected = algorithm === 'rsa-sha256' ? [CSC_OID.rsaEncryption, CSC_OID.sha256WithRsa] : [CSC_OID.ecPublicKey, CSC_OID.ecdsaWithSha256];
  if (algos.length > 0 && !algos.some((oid) => (expected as string[]).includes(oid))) throw refuse(`its key algorithms (${algos.join(', ')}) do not match its certificate`);
  const mode = info.auth?.mode ?? 'explicit';
  if (mode === 'oauth2code') throw refuse('its authorization needs a user (oauth2code), which an unattended seal cannot give');
  const ids = (info.auth?.objects ?? []).map((o) => (o.id ?? o.type ?? '').toUpperCase());
  const needs = mode === 'implicit' ? { pin: false, otp: false } : { pin: ids.includes('PIN') || ids.includes('PASSWORD'), otp: ids.includes('OTP') };
  return { chain, certificate, algorithm, needs };
}

function authData(settings: CscSettings, needs: Credential['needs']): { authData?: { id: string; value: string }[] } {
  const data: { id: string; value: string }[] = [];
  if (needs.pin) {
    if (!settings.pin) throw new CscError(`Credential ${settings.credentialId} asks for a PIN and none is configured (CSC_PIN)`);
    data.push({ id: 'PIN', value: settings.pin });
  }
  if (needs.otp) {
    if (!settings.otp) throw new CscError(`Credential ${settings.credentialId} asks for an OTP and none is configured (CSC_OTP)`);
    data.push({ id: 'OTP', value: settings.otp });
  }
  return data.length > 0 ? { authData: data } : {};
}
