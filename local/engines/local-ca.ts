/**
 * The local certificate authority and timestamp authority, so local seals are PAdES B-LTA and verify against a
 * root: a root CA, a timestamp authority certificate (EKU timeStamping, critical) and the seal certificate it
 * issues for the local seal key, all made once and kept under `dir`; an RFC 3161 responder (POST /tsa) and the
 * root's CRL (GET /crl/root.crl) on a port of their own. The port is kept between starts when it is free, so the
 * CRL address written into the certificates stays valid; when it moved, the leaf certificates are issued again.
 * The responder keeps time by `now` (the local stack's service clock): its tokens' genTime, its CRLs, and when it
 * renews its own certificate, so moving that clock ages the authority as years would age a real one.
 */
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSealKey, KeyFileSigner, signDigestWithKey } from '#shared/adapters/local/key-file-signer.ts';
import { DEFAULT_SEAL_KEY_SPEC, type SealKeySpec } from '#shared/adapters/seal-key-spec.ts';
import { selfSigned } from '#shared/pki/dss.ts';
import { crlUrls, issueCertificate, issueCrl, type SigningKey } from '#shared/pki/certificate-authority.ts';
import { fromPem, OID, toPem } from '#shared/pki/certificates.ts';
import { issueTimestampToken, parseTimestampRequest, timestampResponse } from '#shared/pki/tsp.ts';
import { freePort, isPortFree } from './free-port.ts';
import { refuseIfEnginesBarred, type RunningEngine } from './types.ts';

export interface RunningPki extends RunningEngine {
  tsaUrl: string;
  crlUrl: string;
  rootPem: string;
  rootDer: Uint8Array;
  /** The chain to give the local seal key: `current` when it still fits, else a certificate issued by the local root. */
  sealChain(publicKey: Uint8Array, current: Uint8Array[]): Promise<Uint8Array[]>;
}

const ORGANIZATION = 'E-Signature Service (local)';
const VALID_DAYS = { root: 3650, leaf: 825 };
/** ETSI EN 319 421's best-practices time-stamp policy (the one qualified TSAs state), with an accuracy of 1 s. */
const TSA_POLICY = '0.4.0.2023.1.1';
const TSA_ACCURACY_SECONDS = 1;

interface Party { key: KeyObject; cert: Uint8Array }

export interface LocalPkiOptions {
  dir: string;
  /** The type of the root's and the timestamp authority's keys when they are made (default ECDSA P-256). */
  keySpec?: SealKeySpec;
  /** The lifetime of a timestamp authority certificate it issues (archive renewal tests shorten it). */
  tsaValidDays?: number;
  /** The time it stamps, issues CRLs and renews by (default: the machine's clock). */
  now?: () => Date;
}

export async function startLocalPki(options: LocalPkiOptions): Promise<RunningPki> {
  const keySpec = options.keySpec ?? DEFAULT_SEAL_KEY_SPEC;
  refuseIfEnginesBarred('the local PKI');
  const now = options.now ?? (() => new Date());
  await mkdir(options.dir, { recursive: true });
  const state = await readJson<{ port?: number }>(join(options.dir, 'state.json'));
  const port = state?.port && (await isPortFree(state.port, '127.0.0.1')) ? state.port : await freePort();
  const endpoint = `http://127.0.0.1:${String(port)}`;
  const crlUrl = `${endpoint}/crl/root.crl`;
  const root = await party(options.dir, 'root', keySpec, async (key) => issueCertificate({
    subject: [[OID.commonName, 'E-Signature Service Local Root CA'], [OID.organization, ORGANIZATION], [OID.country, 'DE']],
    publicKey: spki(key), profile: 'ca', key: signingKey(key), validFrom: new Date(), validDays: VALID_DAYS.root,
  }));
  const issue = (key: KeyObject | Uint8Array, profile: 'seal' | 'timestamping', commonName: string, validFrom = new Date()) => issueCertificate({
    subject: [[OID.commonName, commonName], [OID.organization, ORGANIZATION], [OID.country, 'DE']],
    publicKey: key instanceof Uint8Array ? key : spki(key), profile, issuer: root.cert, key: signingKey(root.key), crlUrl, validFrom,
    validDays: profile === 'timestamping' ? options.tsaValidDays ?? VALID_DAYS.leaf : VALID_DAYS.leaf,
  });
  const certifyTsa = (at: Date) => (key: KeyObject) => issue(key, 'timestamping', 'E-Signature Service Local Timestamp Authority', at);
  let tsa = await party(options.dir, 'tsa', keySpec, certifyTsa(now()), (cert) => crlUrls(cert).includes(crlUrl));
  let tsaSigner = new KeyFileSigner(tsa.key, [tsa.cert, root.cert]);
  let renewing: Promise<void> | undefined;
  const renewTsaIfDue = async (at: Date): Promise<void> => {
    if (!renewalDue(tsa.cert, at)) return;
    renewing ??= party(options.dir, 'tsa', keySpec, certifyTsa(at), () => false, { newKey: true })
      .then((next) => { tsa = next; tsaSigner = new KeyFileSigner(next.key, [next.cert, root.cert]); })
      .finally(() => { renewing = undefined; });
    await renewing;
  };
  let crlNumber = 0;
  const server = createServer((req, res) => void handle(req, res, {
    timestamp: async (body) => {
      const request = parseTimestampRequest(body);
      const time = now();
      await renewTsaIfDue(time);
      return timestampResponse(await issueTimestampToken(tsaSigner, { ...request, time, policy: TSA_POLICY, certificate: tsa.cert, accuracySeconds: TSA_ACCURACY_SECONDS }));
    },
    crl: () => {
      const thisUpdate = now();
      return issueCrl({ issuer: root.cert, key: signingKey(root.key), thisUpdate, nextUpdate: new Date(thisUpdate.getTime() + 7 * 86_400_000), number: ++crlNumber });
    },
  }));
  await listen(server, port);
  await writeFile(join(options.dir, 'state.json'), JSON.stringify({ port }));
  let stopping: Promise<void> | undefined;
  return {
    endpoint, tsaUrl: `${endpoint}/tsa`, crlUrl, rootPem: toPem(root.cert), rootDer: root.cert,
    sealChain: async (publicKey, current) => {
      const [leaf] = current;
      if (leaf && keepsChain(leaf, root.cert, crlUrl)) return current;
      return [await issue(publicKey, 'seal', 'E-Signature Service (local seal)'), root.cert];
    },
    stop: () => (stopping ??= new Promise((done) => { server.close(() => { done(); }); server.closeAllConnections(); })),
  };
}

/** A chain someone imported stays; ours stays while its CRL address is current; a self-signed one is replaced. */
function keepsChain(leaf: Uint8Array, root: Uint8Array, crlUrl: string): boolean {
  const cert = new X509Certificate(leaf);
  if (selfSigned(cert)) return false;
  const ours = cert.checkIssued(new X509Certificate(root));
  return !ours || crlUrls(leaf).includes(crlUrl);
}

/**
 * A real timestamp authority signs with a key for only part of its certificate's lifetime (the private key usage
 * period), then with a new key and certificate, so every token it issued stays verifiable for years after. This one
 * uses a certificate for the first half of its lifetime.
 */
function renewalDue(cert: Uint8Array, at: Date): boolean {
  const { validFrom, validTo } = new X509Certificate(cert);
  const [from, to] = [Date.parse(validFrom), Date.parse(validTo)];
  return at.getTime() >= from + (to - from) / 2;
}

/**
 * A key and its certificate under `dir` (made on first use); the certificate is issued again when `valid` says so,
 * with a new key too when `newKey` (a renewal).
 */
async function party(dir: string, name: string, keySpec: SealKeySpec, certify: (key: KeyObject) => Promise<Uint8Array>, valid: (cert: Uint8Array) => boolean = () => true, renewal: { newKey?: boolean } = {}): Promise<Party> {
  const keyFile = join(dir, `${name}-key.pem`);
  const certFile = join(dir, `${name}.pem`);
  const storedKey = renewal.newKey ? '' : await readFile(keyFile, 'utf8').catch(() => '');
  let key: KeyObject;
  try {
    key = createPrivateKey(storedKey);
  } catch {
    key = await generateSealKey(keySpec);
    await writeFile(keyFile, key.export({ type: 'pkcs8', format: 'pem' }).toString(), { mode: 0o600 });
  }
  const stored = fromPem((await readFile(certFile, 'utf8').catch(() => '')))[0];
  if (stored && valid(stored)) return { key, cert: stored };
  const cert = await certify(key);
  await writeFile(certFile, toPem(cert));
  return { key, cert };
}

const spki = (key: KeyObject): Uint8Array => createPublicKey(key).export({ type: 'spki', format: 'der' });
const signingKey = (key: KeyObject): SigningKey => ({
  algorithm: key.asymmetricKeyType === 'ec' ? 'ecdsa-sha256' : 'rsa-sha256',
  signDigest: (digest) => Promise.resolve(signDigestWithKey(key, digest)),
});

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

interface Handlers {
  timestamp(body: Uint8Array): Promise<Uint8Array>;
  crl(): Promise<Uint8Array>;
}

async function handle(req: IncomingMessage, res: ServerResponse, handlers: Handlers): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === 'POST' && req.url === '/tsa') send(res, 200, 'application/timestamp-reply', await handlers.timestamp(Buffer.concat(chunks)));
    else if (req.method === 'GET' && req.url === '/crl/root.crl') send(res, 200, 'application/pkix-crl', await handlers.crl());
    else send(res, 404, 'text/plain', Buffer.from('not found'));
  } catch (error) {
    send(res, 400, 'text/plain', Buffer.from(error instanceof Error ? error.message : 'bad request'));
  }
}

function send(res: ServerResponse, status: number, type: string, body: Uint8Array): void {
  res.writeHead(status, { 'content-type': type, 'content-length': String(body.length) });
  res.end(body);
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => { resolve(); });
  });
}
