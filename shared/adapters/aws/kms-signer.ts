/**
 * The seal key on AWS: a KMS asymmetric key (ECC_NIST_P256 or RSA, SIGN_VERIFY) whose private half
 * never leaves KMS. Its certificate is issued at deploy time, self-signed through KMS by
 * `issueKmsCertificate` (or imported from a real CA), and handed to the signer as a PEM chain.
 */
import { GetPublicKeyCommand, KMSClient, SignCommand, type KMSClientConfig, type SigningAlgorithmSpec } from '@aws-sdk/client-kms';
import type { DocumentSigner } from '#shared/ports/services.ts';
import { fromPem, issueSelfSignedCertificate, toPem, type SignatureAlgorithm } from '#shared/pki/certificates.ts';
import { SEAL_KEY_SPECS } from '#shared/adapters/seal-key-spec.ts';
import { algorithmOfCertificate } from './seal-certificate.ts';

/** The client this adapter runs on: built by shared/deps.ts when the seal function first signs. */
export const kmsClient = (config: KMSClientConfig) => new KMSClient(config);

const KMS_ALGORITHM: Record<SignatureAlgorithm, SigningAlgorithmSpec> = {
  'rsa-sha256': 'RSASSA_PKCS1_V1_5_SHA_256',
  'ecdsa-sha256': 'ECDSA_SHA_256',
};

export class KmsDocumentSigner implements DocumentSigner {
  readonly algorithm: SignatureAlgorithm;
  private readonly chain: Uint8Array[];
  private publicKey: Promise<Uint8Array> | undefined;

  /** `certificateChainPem`: the key's certificate first, then any CA certificates. */
  constructor(
    private readonly kms: KMSClient,
    private readonly keyId: string,
    certificateChainPem: string,
  ) {
    this.chain = fromPem(certificateChainPem);
    const [first] = this.chain;
    if (!first) throw new Error('The seal certificate chain holds no certificate');
    this.algorithm = algorithmOfCertificate(first);
  }

  certificateChain(): Promise<Uint8Array[]> {
    return Promise.resolve(this.chain);
  }

  /** The key's public half as KMS holds it, asked once per container. */
  signingPublicKey(): Promise<Uint8Array> {
    this.publicKey ??= this.kms.send(new GetPublicKeyCommand({ KeyId: this.keyId })).then((key) => {
      if (!key.PublicKey) throw new Error(`KMS returned no public key for ${this.keyId}`);
      return key.PublicKey;
    });
    this.publicKey.catch(() => { this.publicKey = undefined; });
    return this.publicKey;
  }

  /** KMS signs the digest as given (MessageType DIGEST): the same bytes as RAW over the message. */
  async signDigest(digest: Uint8Array): Promise<Uint8Array> {
    return signDigestWithKms(this.kms, this.keyId, this.algorithm, digest);
  }
}

export interface KmsCertificateOptions {
  organization?: string;
  validFrom?: Date;
  validYears?: number;
}

/**
 * A self-signed certificate (PEM) for the KMS key `keyId`, signed by that key through KMS: for the
 * deploy-time custom resource. Only keys that sign with SHA-256 are accepted (RSA_*, ECC_NIST_P256).
 */
export async function issueKmsCertificate(
  kms: KMSClient,
  keyId: string,
  commonName: string,
  options: KmsCertificateOptions = {},
): Promise<string> {
  const key = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
  if (!key.PublicKey) throw new Error(`KMS returned no public key for ${keyId}`);
  if (key.KeyUsage !== undefined && key.KeyUsage !== 'SIGN_VERIFY') throw new Error(`KMS key ${keyId} is not a signing key`);
  const algorithm = algorithmOfKeySpec(key.KeySpec);
  const der = await issueSelfSignedCertificate({
    publicKeySpkiDer: key.PublicKey,
    algorithm,
    signDigest: (digest) => signDigestWithKms(kms, keyId, algorithm, digest),
    commonName,
    organization: options.organization,
    validFrom: options.validFrom ?? new Date(),
    validYears: options.validYears ?? 10,
  });
  return toPem(der);
}

/** The KMS key as a signing key: its public key (DER SPKI) and a signer of SHA-256 digests (for a CSR). */
export async function kmsSigningKey(kms: KMSClient, keyId: string): Promise<{ publicKey: Uint8Array; algorithm: SignatureAlgorithm; signDigest: (digest: Uint8Array) => Promise<Uint8Array> }> {
  const key = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
  if (!key.PublicKey) throw new Error(`KMS returned no public key for ${keyId}`);
  const algorithm = algorithmOfKeySpec(key.KeySpec);
  return { publicKey: key.PublicKey, algorithm, signDigest: (digest) => signDigestWithKms(kms, keyId, algorithm, digest) };
}

async function signDigestWithKms(kms: KMSClient, keyId: string, algorithm: SignatureAlgorithm, digest: Uint8Array): Promise<Uint8Array> {
  const result = await kms.send(
    new SignCommand({ KeyId: keyId, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: KMS_ALGORITHM[algorithm] }),
  );
  if (!result.Signature) throw new Error(`KMS returned no signature for ${keyId}`);
  return result.Signature;
}

function algorithmOfKeySpec(spec: string | undefined): SignatureAlgorithm {
  if (spec?.startsWith('RSA_')) return 'rsa-sha256'; // RSASSA-PKCS1-v1_5 with SHA-256 at any modulus size
  if (spec === 'ECC_NIST_P256') return 'ecdsa-sha256';
  // P-384/P-521 pair with SHA-384/512 in KMS, which the DocumentSigner port (SHA-256 digests) cannot carry.
  throw new Error(`Unsupported KMS key spec for sealing: ${spec ?? 'unknown'} (use one of ${SEAL_KEY_SPECS.join(', ')})`);
}
