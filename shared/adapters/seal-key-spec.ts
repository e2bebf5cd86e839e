/**
 * The seal key's type, named as KMS names key specs, for the KMS key (CDK context `sealKeySpec`) and the local key
 * files (SEAL_KEY_SPEC) alike. Only a new key takes the spec: a key that exists is used as it is, its type read from
 * the key and its certificate, so a deployment made with an RSA-2048 key keeps sealing with it.
 */

/** Every spec a seal can be made with: each signs SHA-256 digests (KMS pairs P-384 and P-521 with SHA-384/512). */
export const SEAL_KEY_SPECS = ['ECC_NIST_P256', 'RSA_3072', 'RSA_4096', 'RSA_2048'] as const;
export type SealKeySpec = (typeof SEAL_KEY_SPECS)[number];

/**
 * ECDSA P-256: at the 128-bit level current guidance asks of new long-lived signatures (RSA-2048 is 112 bits), and in
 * the seal benchmark (`npm run bench -- --only=seal-keys`) faster to sign than RSA-3072 and smaller in every seal.
 */
export const DEFAULT_SEAL_KEY_SPEC: SealKeySpec = 'ECC_NIST_P256';

/** `value` as a spec, or an error naming the accepted ones. */
export function sealKeySpecOf(value: string, setting: string): SealKeySpec {
  const spec = SEAL_KEY_SPECS.find((s) => s === value.toUpperCase());
  if (!spec) throw new Error(`${setting} must be one of ${SEAL_KEY_SPECS.join(', ')} (got ${JSON.stringify(value)})`);
  return spec;
}

/** The RSA modulus length of a spec, or undefined for the elliptic curve. */
export const rsaModulusLength = (spec: SealKeySpec): number | undefined =>
  spec.startsWith('RSA_') ? Number(spec.slice('RSA_'.length)) : undefined;
