/**
 * The seal's CMS is assembled from DER parts (the certificates copied as they are, not parsed and re-encoded):
 * the bytes must be what pkijs encodes for the same SignedData, for a detached signature and a timestamp token.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { CMS_OID, buildSignedData, tlv } from '#shared/pki/cms.ts';
import { issueSelfSignedCertificate } from '#shared/pki/certificates.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** pkijs's own encoding of what `cms` holds: its parts parsed, then the whole encoded again. */
function pkijsEncoding(cms: Uint8Array): Uint8Array {
  const info = pkijs.ContentInfo.fromBER(cms);
  const signedData = new pkijs.SignedData({ schema: info.content });
  const again = new pkijs.ContentInfo({ contentType: CMS_OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(again.toSchema().toBER(false));
}

describe('the CMS assembled from DER parts', () => {
  it('is byte for byte what pkijs encodes, with a chain of two certificates, detached and encapsulated', async () => {
    const signer = await KeyFileSigner.open(join(mkdtempSync(join(tmpdir(), 'cms-assembly-')), 'key'));
    const [own] = await signer.certificateChain();
    const second = await issueSelfSignedCertificate({
      publicKeySpkiDer: signer.publicKey(), algorithm: 'ecdsa-sha256', signDigest: (d) => signer.signDigest(d),
      commonName: 'Second in chain', validFrom: new Date('2026-01-01T00:00:00Z'), validYears: 1,
    });
    const chained = { algorithm: signer.algorithm, signDigest: (d: Uint8Array) => signer.signDigest(d), certificateChain: () => Promise.resolve([own ?? new Uint8Array(), second]) };
    const detached = await buildSignedData(chained, { contentType: CMS_OID.data, contentDigest: new Uint8Array(32).fill(7) });
    const encapsulated = await buildSignedData(chained, { contentType: CMS_OID.tstInfo, contentDigest: new Uint8Array(32).fill(9), content: new Uint8Array(300).fill(1) });
    expect(Buffer.from(detached).equals(pkijsEncoding(detached))).toBe(true);
    expect(Buffer.from(encapsulated).equals(pkijsEncoding(encapsulated))).toBe(true);
    const versions = [detached, encapsulated].map((cms) => new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(cms).content }).version);
    expect(versions).toEqual([1, 3]);
  });

  it('writes short and long definite lengths as asn1js does', () => {
    for (const size of [0, 1, 127, 128, 255, 256, 65_535, 65_536, 70_000]) {
      const content = new Uint8Array(size).fill(5);
      const reference = new Uint8Array(new asn1js.OctetString({ valueHex: content }).toBER(false));
      expect(Buffer.from(tlv(0x04, content.subarray(0, size >> 1), content.subarray(size >> 1))).equals(reference)).toBe(true);
    }
  });
});
