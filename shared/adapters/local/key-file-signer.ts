/**
 * The local seal key: a key (ECDSA P-256 unless SEAL_KEY_SPEC names another) and a self-signed certificate kept as PEM
 * files in a directory, made on first use. For local runs only; on AWS the key lives in KMS (see KmsDocumentSigner).
 */
import { X509Certificate, constants, createPrivateKey, createPublicKey, generateKeyPair, privateEncrypt, type KeyObject } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Clock, DocumentSigner } from '#shared/ports/services.ts';
import { cachedOnClock } from '#shared/adapters/seal-chain-cache.ts';
import { fromPem, issueSelfSignedCertificate, toPem, type SignatureAlgorithm } from '#shared/pki/certificates.ts';
import { DEFAULT_SEAL_KEY_SPEC, rsaModulusLength, type SealKeySpec } from '#shared/adapters/seal-key-spec.ts';

export const KEY_FILE = 'signing-key.pem';
export const CERTIFICATE_FILE = 'signing-cert.pem';
const COMMON_NAME = 'E-Signature Service (local)';
const VALID_YEARS = 10;

/** DER prefix of a DigestInfo for SHA-256 (RFC 8017 §9.2 note 1): what PKCS#1 v1.5 signs around a digest. */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

export class KeyFileSigner implements DocumentSigner {
  readonly algorithm: SignatureAlgorithm;
  /** The key's type as KMS would name it (what the local KMS reports). */
  readonly keySpec: SealKeySpec;
  private readChain: (() => Promise<Uint8Array[]>) | undefined;

  /** `chain`: DER certificates, the one for `key` first. Use `open` for the key files. */
  constructor(
    private readonly key: KeyObject,
    private readonly chain: Uint8Array[],
  ) {
    this.keySpec = keySpecOfKey(key);
    this.algorithm = this.keySpec === 'ECC_NIST_P256' ? 'ecdsa-sha256' : 'rsa-sha256';
  }

  /**
   * The signer for the key in `dir`, creating the key and a self-signed certificate there on first use. With
   * `certify` (the local CA), the chain it returns replaces the stored one when they differ. With `clock`, the chain
   * is read again from its file once a minute old on that clock, so a running stack uses a chain imported with
   * `seal-cert import` without a restart. `keySpec` is the type of a key made here (default ECDSA P-256); a stored key
   * is used whatever its type.
   */
  static async open(dir: string, options: { certify?: (publicKey: Uint8Array, current: Uint8Array[]) => Promise<Uint8Array[]>; clock?: Clock; keySpec?: SealKeySpec } = {}): Promise<KeyFileSigner> {
    const stored = await readStored(dir);
    let signer = stored ? checked(stored.key, stored.certificatePem) : await create(dir, options.keySpec ?? DEFAULT_SEAL_KEY_SPEC);
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

  /** The signature of a precomputed SHA-256 digest: RSASSA-PKCS1-v1_5, or ECDSA as DER (as KMS returns it). */
  signDigest(digest: Uint8Array): Promise<Uint8Array> {
    return new Promise((resolve) => {
      resolve(signDigestWithKey(this.key, digest)); // a throw here becomes a rejection
    });
  }
}

/** The spec of a private or public key: RSA of any supported size, or P-256; any other key is refused. */
export function keySpecOfKey(key: KeyObject): SealKeySpec {
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'rsa' && [2048, 3072, 4096].includes(details?.modulusLength ?? 0)) return `RSA_${String(details?.modulusLength)}` as SealKeySpec;
  if (key.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1') return 'ECC_NIST_P256';
  throw new Error(`A seal key must be RSA (2048, 3072 or 4096 bits) or ECDSA P-256 (got ${key.asymmetricKeyType ?? 'unknown'} ${String(details?.modulusLength ?? details?.namedCurve ?? '')})`);
}

/** A new private key of `spec`. */
export async function generateSealKey(spec: SealKeySpec): Promise<KeyObject> {
  const modulusLength = rsaModulusLength(spec);
  const pair = modulusLength === undefined
    ? await promisify(generateKeyPair)('ec', { namedCurve: 'prime256v1' })
    : await promisify(generateKeyPair)('rsa', { modulusLength });
  return pair.privateKey;
}

/** The signature of a SHA-256 digest with an RSA (PKCS#1 v1.5) or P-256 (ECDSA, DER) private key. */
export function signDigestWithKey(key: KeyObject, digest: Uint8Array): Uint8Array {
  if (key.asymmetricKeyType !== 'ec') return signRsaDigest(key, digest);
  if (digest.length !== 32) throw new Error('Expected a 32-byte SHA-256 digest');
  // node:crypto hashes whatever it signs with ECDSA; noble signs the digest as given (prehash off), as KMS does.
  return p256.sign(digest, privateScalar(key), { prehash: false, format: 'der' });
}

const scalars = new WeakMap<KeyObject, Uint8Array>();
function privateScalar(key: KeyObject): Uint8Array {
  let d = scalars.get(key);
  if (!d) {
    const jwk = key.export({ format: 'jwk' });
    if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1' || !jwk.d) throw new Error('Only P-256 private keys sign ECDSA here');
    scalars.set(key, (d = new Uint8Array(Buffer.from(jwk.d, 'base64url'))));
  }
  return d;
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

async function create(dir: string, spec: SealKeySpec): Promise<KeyFileSigner> {
  const privateKey = await generateSealKey(spec);
  const certificate = await issueSelfSignedCertificate({
    publicKeySpkiDer: createPublicKey(privateKey).export({ type: 'spki', format: 'der' }),
    algorithm: spec === 'ECC_NIST_P256' ? 'ecdsa-sha256' : 'rsa-sha256',
    signDigest: (digest) => Promise.resolve(signDigestWithKey(privateKey, digest)),
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
