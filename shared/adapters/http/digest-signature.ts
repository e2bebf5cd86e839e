/**
 * Checks a signature over a precomputed SHA-256 digest against a certificate, before a remote signer's answer is
 * embedded. node:crypto verifies only over a message it hashes itself; RSA PKCS#1 v1.5 is checked by recovering the
 * DigestInfo, and ECDSA P-256 with @noble/curves, which verifies over a given digest.
 */
import { constants, publicDecrypt, type X509Certificate } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import type { DocumentSigner } from '#shared/ports/services.ts';

/** DER prefix of a DigestInfo for SHA-256 (RFC 8017 §9.2 note 1). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/**
 * The signature as CMS embeds it (ECDSA as DER, also when given as r||s), if it verifies for `digest` under the
 * certificate's key; undefined otherwise.
 */
export function checkDigestSignature(certificate: X509Certificate, algorithm: DocumentSigner['algorithm'], digest: Uint8Array, signature: Uint8Array): Uint8Array | undefined {
  if (algorithm === 'rsa-sha256') {
    let recovered: Buffer;
    try {
      recovered = publicDecrypt({ key: certificate.publicKey, padding: constants.RSA_PKCS1_PADDING }, signature);
    } catch {
      return undefined;
    }
    return recovered.equals(Buffer.concat([SHA256_DIGEST_INFO, digest])) ? new Uint8Array(signature) : undefined;
  }
  const jwk = certificate.publicKey.export({ format: 'jwk' });
  if (jwk.crv !== 'P-256' || !jwk.x || !jwk.y) return undefined;
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
  const der = ecdsaDer(signature);
  if (!der) return undefined;
  // Any valid s (not only the low one): node:crypto and HSMs produce either.
  return p256.verify(der, digest, point, { prehash: false, format: 'der', lowS: false }) ? der : undefined;
}

function ecdsaDer(signature: Uint8Array): Uint8Array | undefined {
  try {
    return p256.Signature.fromBytes(signature, 'der').toBytes('der');
  } catch {
    if (signature.length !== 64) return undefined;
    try { return p256.Signature.fromBytes(signature, 'compact').toBytes('der'); } catch { return undefined; }
  }
}
