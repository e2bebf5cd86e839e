/**
 * A local trust service provider speaking the Cloud Signature Consortium API v2, for `npm start` with SIGNER=csc and
 * the adapter's contract tests. It signs for real with its own keys (csc-credentials.ts) and enforces what a remote
 * QSCD enforces: an OAuth2 client-credentials token on every call; a PIN on `credentials/authorize`; a SAD bound to
 * the credential and the hashes it was issued for, good for `numSignatures` signatures in all, then spent, and
 * expiring after its lifetime. Errors have the CSC shape: `{ "error": ..., "error_description": ... }`. The root's CRL
 * is served too (GET /crl/root.crl), so seals made with it reach PAdES B-LTA like the local KMS seal.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toPem } from '#shared/pki/certificates.ts';
import { issueCrl } from '#shared/pki/certificate-authority.ts';
import { CSC_CREDENTIALS, cscKeys, signDigestWith, signingKey, type CscCredentialKeys } from './csc-credentials.ts';
import { freePort, isPortFree } from './free-port.ts';
import type { RunningEngine } from './types.ts';

const OIDS = {
  sha256: '2.16.840.1.101.3.4.2.1', sha256WithRsa: '1.2.840.113549.1.1.11', rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2', ecPublicKey: '1.2.840.10045.2.1', p256: '1.2.840.10045.3.1.7',
} as const;

export interface CscMockOptions {
  /** Keep the root and the credentials here between starts; absent: new ones, in memory. */
  dir?: string;
  clientId?: string;
  clientSecret?: string;
  pin?: string;
  /** How long a SAD may be used. */
  sadSeconds?: number;
  /** The provider's clock (SAD and token expiry); tests move it. */
  now?: () => Date;
}

/** What a test may make the provider do wrong. */
export interface CscFaults {
  /** Requests to this path (e.g. `signatures/signHash`) are held and never answered. */
  stall: string | null;
  /** signHash signs another digest than the one asked for, as a faulty or compromised device would. */
  wrongSignature: boolean;
  /** Called between a SAD's issue and its use (a test moves the provider's clock here). */
  beforeSignHash: (() => void) | null;
}

export interface RunningCsc extends RunningEngine {
  /** The API root: `${baseUrl}/oauth2/token`, `${baseUrl}/credentials/info`... */
  baseUrl: string;
  crlUrl: string;
  rootPem: string;
  clientId: string;
  clientSecret: string;
  pin: string;
  credentials: typeof CSC_CREDENTIALS;
  faults: CscFaults;
  /** Invalidates every access token issued so far. */
  revokeTokens(): void;
}

class CscProblem extends Error {
  constructor(readonly status: number, readonly error: string, description: string) { super(description); }
}
const invalid = (description: string) => new CscProblem(400, 'invalid_request', description);

interface Sad { credentialId: string; hashes: Set<string>; remaining: number; expiresAt: number }

export async function startCscMock(options: CscMockOptions = {}): Promise<RunningCsc> {
  // The port is kept between starts when free: the CRL address in the credentials' certificates stays valid.
  const portFile = options.dir ? join(options.dir, 'csc-port.json') : undefined;
  const kept = portFile ? await readFile(portFile, 'utf8').then((t) => (JSON.parse(t) as { port?: number }).port, () => undefined) : undefined;
  const port = kept && (await isPortFree(kept, '127.0.0.1')) ? kept : await freePort();
  const endpoint = `http://127.0.0.1:${String(port)}`;
  const crlUrl = `${endpoint}/crl/root.crl`;
  const keys = await cscKeys(options.dir, crlUrl);
  const client = { id: options.clientId ?? 'esign-local', secret: options.clientSecret ?? randomBytes(24).toString('base64url') };
  const pin = options.pin ?? '123456';
  const sadMs = (options.sadSeconds ?? 300) * 1000;
  const now = () => (options.now ?? (() => new Date()))().getTime();
  const tokens = new Map<string, number>();
  const sads = new Map<string, Sad>();
  const faults: CscFaults = { stall: null, wrongSignature: false, beforeSignHash: null };
  const held = new Set<ServerResponse>();
  let crlNumber = 0;

  const credential = (id: unknown): CscCredentialKeys => {
    if (typeof id !== 'string') throw invalid('Missing (or invalid type) string parameter credentialID');
    const found = keys.credentials.find((c) => c.id === id);
    if (!found) throw invalid('Invalid parameter credentialID');
    return found;
  };
  const hashesOf = (value: unknown): string[] => {
    if (!Array.isArray(value) || value.length === 0 || !value.every((h) => typeof h === 'string' && Buffer.from(h, 'base64').length === 32)) {
      throw invalid('Invalid parameter hashes: base64 SHA-256 digests expected');
    }
    return value as string[];
  };

  const api: Record<string, (body: Record<string, unknown>) => unknown> = {
    'info': () => ({ specs: '2.0.0.2', name: 'Local CSC provider', region: 'DE', lang: 'en-US', authType: ['oauth2client'], oauth2: endpoint, methods: ['credentials/list', 'credentials/info', 'credentials/authorize', 'signatures/signHash'] }),
    'credentials/list': () => ({ credentialIDs: keys.credentials.map((c) => c.id) }),
    'credentials/info': (body) => {
      const c = credential(body.credentialID);
      const which = body.certificates ?? 'single';
      const certificates = which === 'none' ? undefined : (which === 'chain' ? c.chain : c.chain.slice(0, 1)).map((der) => Buffer.from(der).toString('base64'));
      return {
        description: `Local seal credential (${c.kind})`, signatureQualifier: 'eu_eseal_qualified', SCAL: '2', multisign: 10, lang: 'en-US',
        key: { status: 'enabled', algo: c.kind === 'rsa' ? [OIDS.rsaEncryption] : [OIDS.ecPublicKey], len: c.kind === 'rsa' ? 2048 : 256, ...(c.kind === 'ec' ? { curve: OIDS.p256 } : {}) },
        cert: { status: 'valid', ...(certificates ? { certificates } : {}) },
        ...(body.authInfo === true ? { auth: { mode: 'explicit', objects: [{ type: 'Password', id: 'PIN', format: 'N', label: 'PIN', description: 'The seal credential PIN' }] } } : {}),
      };
    },
    'credentials/authorize': (body) => {
      const c = credential(body.credentialID);
      const numSignatures = body.numSignatures;
      if (typeof numSignatures !== 'number' || !Number.isInteger(numSignatures) || numSignatures < 1) throw invalid('Missing (or invalid type) integer parameter numSignatures');
      if (numSignatures > 10) throw invalid('numSignatures exceeds the credential\'s multisign (10)');
      if (body.hashAlgorithmOID !== OIDS.sha256) throw invalid('Invalid parameter hashAlgorithmOID');
      const hashes = hashesOf(body.hashes);
      if (hashes.length !== numSignatures) throw invalid('numSignatures does not match the number of hashes');
      const given = Array.isArray(body.authData) ? (body.authData as { id?: unknown; value?: unknown }[]).find((a) => a.id === 'PIN')?.value : undefined;
      if (typeof given !== 'string') throw invalid('Missing parameter authData: the credential needs its PIN');
      if (!sameText(given, pin)) throw new CscProblem(400, 'invalid_pin', 'The PIN is invalid');
      const SAD = randomBytes(24).toString('base64url');
      sads.set(SAD, { credentialId: c.id, hashes: new Set(hashes), remaining: numSignatures, expiresAt: now() + sadMs });
      return { SAD, expiresIn: Math.floor(sadMs / 1000) };
    },
    'signatures/signHash': (body) => {
      const c = credential(body.credentialID);
      faults.beforeSignHash?.();
      const sadValue = body.SAD;
      const sad = typeof sadValue === 'string' ? sads.get(sadValue) : undefined;
      if (typeof sadValue !== 'string' || sad?.credentialId !== c.id) throw invalid('Invalid parameter SAD');
      if (now() >= sad.expiresAt) { sads.delete(sadValue); throw invalid('SAD expired'); }
      if (body.hashAlgorithmOID !== OIDS.sha256) throw invalid('Invalid parameter hashAlgorithmOID');
      const expectedAlgo = c.kind === 'rsa' ? [OIDS.sha256WithRsa, OIDS.rsaEncryption] : [OIDS.ecdsaWithSha256];
      if (typeof body.signAlgo !== 'string' || !(expectedAlgo as string[]).includes(body.signAlgo)) throw invalid('Invalid parameter signAlgo');
      const hashes = hashesOf(body.hashes);
      if (hashes.length > sad.remaining) throw invalid('The SAD does not authorize this many signatures (numSignatures)');
      if (hashes.some((h) => !sad.hashes.has(h)) || new Set(hashes).size !== hashes.length) throw invalid('Invalid parameter hashes: not authorized by the SAD');
      sad.remaining -= hashes.length;
      for (const h of hashes) sad.hashes.delete(h);
      if (sad.remaining === 0) sads.delete(sadValue);
      const signatures = hashes.map((h) => {
        const digest = Buffer.from(h, 'base64');
        if (faults.wrongSignature) digest[0] = (digest[0] ?? 0) ^ 0xff;
        return Buffer.from(signDigestWith(c, digest)).toString('base64');
      });
      return { signatures };
    },
  };

  const token = (form: URLSearchParams) => {
    if (form.get('grant_type') !== 'client_credentials') throw new CscProblem(400, 'unsupported_grant_type', 'Only client_credentials is supported');
    if (form.get('client_id') !== client.id || !sameText(form.get('client_secret') ?? '', client.secret)) throw new CscProblem(401, 'invalid_client', 'Client authentication failed');
    const value = randomBytes(24).toString('base64url');
    tokens.set(value, now() + 3_600_000);
    return { access_token: value, token_type: 'Bearer', expires_in: 3600 };
  };
  const authorized = (req: IncomingMessage) => {
    const value = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const until = value ? tokens.get(value) : undefined;
    if (!until || now() >= until) throw new CscProblem(401, 'invalid_token', 'The access token is not valid');
  };

  const server = createServer((req, res) => void (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'GET' && path === '/crl/root.crl') {
      const at = new Date(now());
      const crl = await issueCrl({ issuer: keys.root.cert, key: signingKey(keys.root.key), thisUpdate: at, nextUpdate: new Date(at.getTime() + 7 * 86_400_000), number: ++crlNumber });
      res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(crl);
      return;
    }
    const method = path.startsWith('/csc/v2/') ? path.slice('/csc/v2/'.length) : null;
    if (method !== null && method === faults.stall) { held.add(res); return; }
    try {
      if (req.method !== 'POST' || method === null) throw new CscProblem(404, 'invalid_request', 'Unknown method');
      if (method === 'oauth2/token') { json(res, 200, token(new URLSearchParams(text))); return; }
      const handler = api[method];
      if (!handler) throw new CscProblem(404, 'invalid_request', 'Unknown method');
      if (method !== 'info') authorized(req);
      let body: unknown;
      try { body = text ? JSON.parse(text) : {}; } catch { throw invalid('The request body is not JSON'); }
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('The request body is not a JSON object');
      json(res, 200, handler(body as Record<string, unknown>));
    } catch (error) {
      if (error instanceof CscProblem) json(res, error.status, { error: error.error, error_description: error.message });
      else json(res, 500, { error: 'server_error', error_description: (error as Error).message });
    }
  })());
  await new Promise<void>((done, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', () => { done(); }); });
  if (portFile) await writeFile(portFile, JSON.stringify({ port }));
  let stopping: Promise<void> | undefined;
  return {
    endpoint, baseUrl: `${endpoint}/csc/v2`, crlUrl, rootPem: toPem(keys.root.cert), clientId: client.id, clientSecret: client.secret, pin,
    credentials: CSC_CREDENTIALS, faults,
    revokeTokens: () => { tokens.clear(); },
    stop: () => (stopping ??= new Promise((done) => {
      for (const res of held) res.destroy();
      server.close(() => { done(); });
      server.closeAllConnections();
    })),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length), 'cache-control': 'no-store' }).end(bytes);
}

function sameText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}
