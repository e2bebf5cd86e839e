/**
 * A certificate authority for verification tests, made with the service's own CA tools: a root and a seal
 * certificate of a chosen lifetime (to let it expire), CRLs and OCSP responses (good, revoked, unknown) it signs, and a
 * revocation source that answers for its certificates and asks the network for any other (the local TSA's).
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { HttpRevocationSource } from '#shared/adapters/http/revocation-source.ts';
import { generateSealKey, KeyFileSigner, signDigestWithKey } from '#shared/adapters/local/key-file-signer.ts';
import { issueCertificate, issueCrl, type SigningKey } from '#shared/pki/certificate-authority.ts';
import { OID } from '#shared/pki/certificates.ts';
import type { RevocationData, RevocationSource } from '#shared/ports/services.ts';

export type OcspStatus = { status: 'good' } | { status: 'revoked'; at: Date } | { status: 'unknown' };

export interface ShortLivedCa {
  rootDer: Uint8Array;
  sealDer: Uint8Array;
  /** Signs as the seal certificate's key. */
  signer: KeyFileSigner;
  crl(options?: { revoked?: boolean; thisUpdate?: Date }): Promise<Uint8Array>;
  /** An OCSP response about the seal certificate signed by the root itself (no responder certificate, RFC 6960 §4.2.2.2). */
  ocsp(status: OcspStatus, options?: { includeCertificate?: boolean }): Promise<Uint8Array>;
  /** For the seal: `answer` for this CA's certificate, the certificate's own CRL address for any other. */
  revocation(answer: () => Promise<RevocationData>): RevocationSource;
}

const spki = (key: KeyObject): Uint8Array => createPublicKey(key).export({ type: 'spki', format: 'der' });
const signingKey = (key: KeyObject): SigningKey => ({ algorithm: 'ecdsa-sha256', signDigest: (digest) => Promise.resolve(signDigestWithKey(key, digest)) });

/** A root valid for ten years and a seal certificate valid from `validFrom` for `validDays` days. */
export async function shortLivedCa(options: { validFrom: Date; validDays: number }): Promise<ShortLivedCa> {
  const rootKey = await generateSealKey('ECC_NIST_P256');
  const sealKey = await generateSealKey('ECC_NIST_P256');
  const rootDer = await issueCertificate({
    subject: [[OID.commonName, 'Short-Lived Test Root'], [OID.organization, 'Verification Tests']], publicKey: spki(rootKey), profile: 'ca',
    key: signingKey(rootKey), validFrom: new Date(options.validFrom.getTime() - 86_400_000), validDays: 3650,
  });
  const sealDer = await issueCertificate({
    subject: [[OID.commonName, 'Short-Lived Seal'], [OID.organization, 'Verification Tests']], publicKey: spki(sealKey), profile: 'seal',
    issuer: rootDer, key: signingKey(rootKey), validFrom: options.validFrom, validDays: options.validDays,
  });
  const seal = pkijs.Certificate.fromBER(sealDer);
  const root = pkijs.Certificate.fromBER(rootDer);
  const http = new HttpRevocationSource();
  return {
    rootDer, sealDer, signer: new KeyFileSigner(sealKey, [sealDer, rootDer]),
    crl: ({ revoked = false, thisUpdate = new Date() } = {}) => issueCrl({
      issuer: rootDer, key: signingKey(rootKey), thisUpdate, nextUpdate: new Date(thisUpdate.getTime() + 7 * 86_400_000), number: 1,
      ...(revoked ? { revoked: [seal.serialNumber.valueBlock.valueHexView.slice()] } : {}),
    }),
    ocsp: async (status, { includeCertificate = false } = {}) => {
      const certID = new pkijs.CertID();
      await certID.createForCertificate(seal, { hashAlgorithm: 'SHA-256', issuerCertificate: root });
      const now = new Date();
      const certStatus = status.status === 'revoked'
        ? new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value: [new asn1js.GeneralizedTime({ valueDate: status.at })] })
        : new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: status.status === 'good' ? 0 : 2 } });
      const basic = new pkijs.BasicOCSPResponse();
      basic.tbsResponseData.responderID = root.subject;
      basic.tbsResponseData.producedAt = now;
      basic.tbsResponseData.responses.push(new pkijs.SingleResponse({ certID, certStatus, thisUpdate: now, nextUpdate: new Date(now.getTime() + 86_400_000) }));
      if (includeCertificate) basic.certs = [root];
      const key = await crypto.subtle.importKey('pkcs8', rootKey.export({ type: 'pkcs8', format: 'der' }), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
      await basic.sign(key, 'SHA-256');
      const response = new pkijs.OCSPResponse({
        responseStatus: new asn1js.Enumerated({ value: 0 }),
        responseBytes: new pkijs.ResponseBytes({ responseType: '1.3.6.1.5.5.7.48.1.1', response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) }) }),
      });
      return new Uint8Array(response.toSchema().toBER(false));
    },
    revocation: (answer) => ({
      revocation: (certificate, issuer, fetchOptions) => (Buffer.from(issuer).equals(Buffer.from(rootDer)) ? answer() : http.revocation(certificate, issuer, fetchOptions)),
    }),
  };
}
