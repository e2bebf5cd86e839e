/**
 * Everything the service encodes is DER, as strict parsers require: the seal's CMS, the document timestamp, the
 * local TSA's tokens and TSTInfo, the local CA's certificates and CRL. And the local TSA's tokens say what a
 * qualified one says: accuracy, the TSA's name, an ETSI policy; the local root allows no intermediate CA.
 */
import { execFileSync } from 'node:child_process';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTimestampAuthority } from '#shared/adapters/http/timestamp-authority.ts';
import type { RunningPki } from '#local/engines/local-ca.ts';
import { sealPdf } from '#shared/sealing/seal.ts';
import { tokenCertificates } from '#shared/pki/tsp.ts';
import { derViolations } from '#test/support/der.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { allSignatures, tempFile } from './signature-tools.ts';

let pki: RunningPki;
let testPki: TestPki;
beforeAll(async () => { testPki = await startTestPki(); pki = testPki.pki; });
afterAll(async () => { await pki.stop(); });

/** The encapsulated content of a token, exactly as encoded (the [0] EXPLICIT OCTET STRING's contents). */
function encapsulated(token: Uint8Array): Uint8Array {
  const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(token).content });
  const content = signed.encapContentInfo.eContent;
  if (!content) throw new Error('no encapsulated content');
  expect(content.idBlock.isConstructed).toBe(false);
  return new Uint8Array(content.valueBlock.valueHexView);
}

describe('DER everywhere', () => {
  it('the derViolations check itself catches what BER allows and DER does not', () => {
    expect(derViolations(Uint8Array.from([0x30, 0x03, 0x01, 0x01, 0x01]))).toEqual(['/0/0: BOOLEAN not 00 or FF']);
    expect(derViolations(Uint8Array.from([0x24, 0x03, 0x04, 0x01, 0x00]))).toEqual(['/0: constructed OCTET STRING']);
    expect(derViolations(Uint8Array.from([0x02, 0x02, 0x00, 0x01]))).toEqual(['/0: INTEGER not minimal']);
    expect(derViolations(Uint8Array.from([0x04, 0x81, 0x01, 0x00]))).toEqual(['/0: long-form length 1 (short form required)']);
    expect(derViolations(Uint8Array.from([0x31, 0x06, 0x02, 0x01, 0x05, 0x02, 0x01, 0x03]))).toEqual(['/0SET/1: SET members out of order']);
    expect(derViolations(Uint8Array.from([0x30, 0x80, 0x00, 0x00]))).toEqual(['/0: indefinite length']);
  });

  it('the local TSA\'s token and its TSTInfo are DER, with accuracy, the TSA\'s name and an ETSI policy, no ordering', async () => {
    const token = await new HttpTimestampAuthority(pki.tsaUrl).timestamp(new Uint8Array(32).fill(7));
    expect(derViolations(token)).toEqual([]);
    const content = encapsulated(token);
    expect(derViolations(content)).toEqual([]);
    const info = pkijs.TSTInfo.fromBER(content);
    expect(info.ordering).toBeUndefined();
    expect(info.policy).toBe('0.4.0.2023.1.1');
    expect(info.accuracy?.seconds).toBe(1);
    expect(info.tsa?.type).toBe(4);
    for (const certificate of tokenCertificates(token)) expect(derViolations(certificate)).toEqual([]);
  });

  it('the local CA\'s certificates and CRL are DER; the root allows no CA below it', async () => {
    expect(derViolations(pki.rootDer)).toEqual([]);
    for (const certificate of await testPki.signer.certificateChain()) expect(derViolations(certificate)).toEqual([]);
    const crl = new Uint8Array(await (await fetch(pki.crlUrl)).arrayBuffer());
    expect(derViolations(crl)).toEqual([]);
    const text = execFileSync('openssl', ['x509', '-inform', 'DER', '-in', tempFile(pki.rootDer, 'root.der'), '-noout', '-text'], { encoding: 'utf8' });
    expect(text).toMatch(/CA:TRUE, pathlen:0/);
  });

  it('a B-LTA seal\'s CMS signature and document timestamp are DER', async () => {
    const sealed = (await sealPdf(await makePdf({ pages: 1 }), testPki.input('B-LTA'))).bytes;
    const signatures = allSignatures(sealed);
    expect(signatures.map((s) => s.subFilter)).toEqual(['ETSI.CAdES.detached', 'ETSI.RFC3161']);
    for (const signature of signatures) expect(derViolations(signature.cms)).toEqual([]);
    expect(derViolations(encapsulated(signatures[1]?.cms ?? new Uint8Array()))).toEqual([]);
  });
});
