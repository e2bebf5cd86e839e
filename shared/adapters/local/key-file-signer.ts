/**
 * The local seal key: an RSA-2048 key and a self-signed certificate kept as PEM files in a directory,
 * made on first use. For local runs only; on AWS the key lives in KMS (see KmsDocumentSigner).
 */
import { X509Certificate, constants, createPrivateKey, createPublicKey, generateKeyPair, privateEncrypt, type KeyObject } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Clock, DocumentSigner } from '#ports/services.ts';
import { cachedOnClock } from '#adapters/seal-chain-cache.ts';
import { fromPem, issueSelfSignedCertificate, toPem } from '#pdf/certificates.ts';

export const KEY_FILE = 'signing-key.pem';
export const CERTIFICATE_FILE = 'signing-cert.pem';
const COMMON_NAME = 'E-Signature Service (local)';
const VALID_YEARS = 10;

/** DER prefix of a DigestInfo for SHA-256 (RFC 8017 §9.2 note 1): what PKCS#1 v1.5 signs around a digest. */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

export class KeyFileSigner implements DocumentSigner {
  readonly algorithm = 'rsa-sha256';
  private readChain: (() => Promise<Uint8Array[]>) | undefined;

  /** `chain`: DER certificates, the one for `key` first. Use `open` for the key files. */
  constructor(
    private readonly key: KeyObject,
    private readonly chain: Uint8Array[],
  ) {}

  /**
   * The signer for the key in `dir`, creating the key and a self-signed certificate there on first use. With
   * `certify` (the local CA), the chain it returns replaces the stored one when they differ. With `clock`, the chain
   * is read again from its file once a minute old on that clock, so a running stack uses a chain imported with
   * `seal-cert import` without a restart.
   */
  static async open(dir: string, options: { certify?: (publicKey: Uint8Array, current: Uint8Array[]) => Promise<Uint8Array[]>; clock?: Clock } = {}): Promise<KeyFileSigner> {
    const stored = await readStored(dir);
    let signer = stored ? checked(stored.key, stored.certificatePem) : await create(dir);
    const chain = options.certify ? await options.certify(signer.publicKey(), signer.chain) : signer.chain;
    if (chain !== signer.chain) signer = await KeyFileSigner.storeChain(dir, chain.map((der) => toPem(der)).join(''));
    if (options.clock) {
      let first: Uint8Array[] | undefined = signer.chain;
      signer.readChain = cachedOnClock(options.clock, async () => {
        const current = first ?? fromPem(await readFile(join(dir, CERTIFICATE_FILE), 'utf8'));
        first = undefined;
        return current;
      });
    }
    return signer;
  }

  /** Checks that the chain's first certificate certifies the key in `dir`, then stores it there (seal-cert import). */
  static async storeChain(dir: string, chainPem: string): Promise<KeyFileSigner> {
    const stored = await readStored(dir);
    if (!stored) throw new Error(`No seal key in ${dir}`);
    const signer = checked(stored.key, chainPem);
    await writeAtomically(join(dir, CERTIFICATE_FILE), chainPem, 0o644);
    return signer;
  }

  /** The DER SubjectPublicKeyInfo of the key. */
  publicKey(): Uint8Array {
    return createPublicKey(this.key).export({ type: 'spki', format: 'der' });
  }

  signingPublicKey(): Promise<Uint8Array> {
    return Promise.resolve(this.publicKey());
  }

  certificateChain(): Promise<Uint8Array[]> {
    return this.readChain ? this.readChain() : Promise.resolve(this.chain);
  }

  /** RSASSA-PKCS1-v1_5 over a precomputed digest: PKCS#1 type-1 padding of DigestInfo(SHA-256, digest). */
  signDigest(digest: Uint8Array): Promise<Uint8Array> {
    return new Promise((resolve) => {
      resolve(signRsaDigest(this.key, digest)); // a throw here becomes a rejection
    });
  }
}

/** The PKCS#1 v1.5 signature of a SHA-256 digest with an RSA private key. */
export function signRsaDigest(key: KeyObject, digest: Uint8Array): Uint8Array {
  if (digest.length !== 32) throw new Error('Expected a 32-byte SHA-256 digest');
  // privateEncrypt with PKCS#1 padding is exactly the signature primitive (EMSA-PKCS1-v1_5, block type 1).
  return new Uint8Array(privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, digest])));
}

async function readStored(dir: string): Promise<{ key: KeyObject; certificatePem: string } | undefined> {
  try {
    const [keyPem, certificatePem] = await Promise.all([
      readFile(join(dir, KEY_FILE), 'utf8'),
      readFile(join(dir, CERTIFICATE_FILE), 'utf8'),
    ]);
    return { key: createPrivateKey(keyPem), certificatePem };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** A certificate for another key would make every seal fail validation: refuse it up front. */
function checked(key: KeyObject, certificatePem: string): KeyFileSigner {
  const chain = fromPem(certificatePem);
  const [first] = chain;
  if (!first) throw new Error(`${CERTIFICATE_FILE} holds no certificate`);
  const certified = new X509Certificate(first).publicKey.export({ type: 'spki', format: 'der' });
  const own = createPublicKey(key).export({ type: 'spki', format: 'der' });
  if (!certified.equals(own)) throw new Error(`${CERTIFICATE_FILE} does not certify the key in ${KEY_FILE}`);
  return new KeyFileSigner(key, chain);
}

async function create(dir: string): Promise<KeyFileSigner> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const certificate = await issueSelfSignedCertificate({
    publicKeySpkiDer: publicKey.export({ type: 'spki', format: 'der' }),
    algorithm: 'rsa-sha256',
    signDigest: (digest) => Promise.resolve(signRsaDigest(privateKey, digest)),
    commonName: COMMON_NAME,
    organization: COMMON_NAME,
    validFrom: new Date(),
    validYears: VALID_YEARS,
  });
  await mkdir(dir, { recursive: true });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Written whole then renamed, so a concurrent reader never sees half a file; the key is private to us.
  await writeAtomically(join(dir, KEY_FILE), keyPem, 0o600);
  await writeAtomically(join(dir, CERTIFICATE_FILE), toPem(certificate), 0o644);
  return new KeyFileSigner(privateKey, [certificate]);
}

async function writeAtomically(path: string, text: string, mode: number): Promise<void> {
  const temporary = `${path}.${String(process.pid)}.tmp`;
  await writeFile(temporary, text, { mode });
  await rename(temporary, path);
}
