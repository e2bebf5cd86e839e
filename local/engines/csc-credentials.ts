/**
 * The local CSC provider's keys: a root CA of its own and one seal credential per key kind (RSA-2048, ECDSA P-256)
 * certified by it, with its CRL address. Kept under `dir` when given, so a root a user chose to trust stays the
 * same between starts; the credential certificates are issued again when the CRL address moved.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { p256 } from '@noble/curves/nist.js';
import { signRsaDigest } from '#shared/adapters/local/key-file-signer.ts';
import { fromPem, OID, toPem } from '#shared/pki/certificates.ts';
import { crlUrls, issueCertificate, type SigningKey } from '#shared/pki/certificate-authority.ts';

export type CscKeyKind = 'rsa' | 'ec';

export interface CscCredentialKeys {
  id: string;
  kind: CscKeyKind;
  key: KeyObject;
  /** The credential's certificate, then the root. */
  chain: Uint8Array[];
}

export interface CscKeys {
  root: { key: KeyObject; cert: Uint8Array };
  credentials: CscCredentialKeys[];
}

/** The credential ids the local provider lists. */
export const CSC_CREDENTIALS: Record<CscKeyKind, string> = { rsa: 'local-seal-rsa', ec: 'local-seal-ec' };

const ORGANIZATION = 'E-Signature Service (local CSC provider)';

interface Stored { root: { key: string; cert: string }; credentials: Record<string, { key: string; cert: string }> }

export async function cscKeys(dir: string | undefined, crlUrl: string): Promise<CscKeys> {
  const file = dir ? join(dir, 'csc-keys.json') : undefined;
  const stored = file ? await readFile(file, 'utf8').then((text) => JSON.parse(text) as Stored, () => undefined) : undefined;
  const rootKey = stored ? createPrivateKey(stored.root.key) : await newKey('rsa');
  const rootCert = stored ? fromPem(stored.root.cert)[0] : undefined;
  const root = {
    key: rootKey,
    cert: rootCert ?? await issueCertificate({
      subject: [[OID.commonName, 'E-Signature Service Local CSC Root CA'], [OID.organization, ORGANIZATION], [OID.country, 'DE']],
      publicKey: spki(rootKey), profile: 'ca', key: signingKey(rootKey), validFrom: new Date(), validDays: 3650,
    }),
  };
  const credentials: CscCredentialKeys[] = [];
  for (const kind of ['rsa', 'ec'] as const) {
    const id = CSC_CREDENTIALS[kind];
    const kept = stored?.credentials[id];
    const key = kept ? createPrivateKey(kept.key) : await newKey(kind);
    const keptCert = kept ? fromPem(kept.cert)[0] : undefined;
    const cert = keptCert && rootCert && crlUrls(keptCert).includes(crlUrl) ? keptCert : await issueCertificate({
      subject: [[OID.commonName, `Local qualified seal (${kind === 'rsa' ? 'RSA' : 'ECDSA P-256'})`], [OID.organization, ORGANIZATION], [OID.country, 'DE']],
      publicKey: spki(key), profile: 'seal', issuer: root.cert, key: signingKey(root.key), crlUrl, validFrom: new Date(), validDays: 825,
    });
    credentials.push({ id, kind, key, chain: [cert, root.cert] });
  }
  if (dir && file) {
    await mkdir(dir, { recursive: true });
    const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
    const state: Stored = {
      root: { key: pem(root.key), cert: toPem(root.cert) },
      credentials: Object.fromEntries(credentials.map((c) => [c.id, { key: pem(c.key), cert: toPem(c.chain[0] ?? new Uint8Array()) }])),
    };
    await writeFile(file, JSON.stringify(state), { mode: 0o600 });
  }
  return { root, credentials };
}

/** The signature of a SHA-256 digest as a remote QSCD returns it: PKCS#1 v1.5, or ECDSA as DER. */
export function signDigestWith(credential: CscCredentialKeys, digest: Uint8Array): Uint8Array {
  if (credential.kind === 'rsa') return signRsaDigest(credential.key, digest);
  const d = credential.key.export({ format: 'jwk' }).d;
  if (!d) throw new Error('the EC key has no private scalar');
  return p256.sign(digest, Buffer.from(d, 'base64url'), { prehash: false, format: 'der' });
}

async function newKey(kind: CscKeyKind): Promise<KeyObject> {
  const pair = kind === 'rsa'
    ? await promisify(generateKeyPair)('rsa', { modulusLength: 2048 })
    : await promisify(generateKeyPair)('ec', { namedCurve: 'P-256' });
  return pair.privateKey;
}

const spki = (key: KeyObject): Uint8Array => createPublicKey(key).export({ type: 'spki', format: 'der' });
export const signingKey = (key: KeyObject): SigningKey => ({ algorithm: 'rsa-sha256', signDigest: (digest) => Promise.resolve(signRsaDigest(key, digest)) });
