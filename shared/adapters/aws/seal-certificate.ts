import { X509Certificate } from 'node:crypto';
import type { DocumentSigner } from '#shared/ports/services.ts';

/**
 * The signature algorithm of a seal certificate's key (DER, or PEM: its first certificate). Apart from the KMS
 * signer so that a function can name its seal algorithm without loading the KMS client.
 */
export function algorithmOfCertificate(certificate: Uint8Array | string): DocumentSigner['algorithm'] {
  const key = new X509Certificate(certificate).publicKey;
  if (key.asymmetricKeyType === 'rsa') return 'rsa-sha256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ecdsa-sha256';
  throw new Error('The seal certificate is for neither an RSA nor a P-256 key');
}

/**
 * The DER certificates of a PEM chain, in order. Written here (not with the PDF code's PEM helpers) so that reading a
 * chain pulls no ASN.1 library into every function's bundle.
 */
export function chainOfPem(pem: string): Uint8Array[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+?)-----END CERTIFICATE-----/g)]
    .map((m) => new Uint8Array(Buffer.from((m[1] ?? '').replace(/\s+/g, ''), 'base64')));
}
