/**
 * /Contents is sized to what the seal needs: once an authority's token size is known, a B-LTA seal reserves its
 * certificates, about 2 KB for the CMS and that token size plus a little, not 16 KB per signature of zeros. A token
 * that outgrows what the authority gave before makes the seal start again with the first-use reserve, not fail.
 */
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTimestampAuthority } from '#shared/adapters/http/timestamp-authority.ts';
import type { RunningPki } from '#local/engines/local-ca.ts';
import { sealPdf } from '#shared/sealing/seal.ts';
import type { DocumentSigner, TimestampAuthority } from '#shared/ports/services.ts';
import { issueTimestampToken, timestampResponse, tokenFromResponse } from '#shared/pki/tsp.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { allSignatures, pdfsig } from './signature-tools.ts';

let pki: RunningPki;
let testPki: TestPki;
beforeAll(async () => { testPki = await startTestPki(); pki = testPki.pki; });
afterAll(async () => { await pki.stop(); });

/** Per signature in the file: the bytes /Contents reserves and the zero padding left after its CMS or token. */
function padding(pdf: Uint8Array): { subFilter: string; reserved: number; unused: number }[] {
  return allSignatures(pdf).map(({ subFilter, byteRange, cms }) => {
    const reserved = (byteRange[2] - byteRange[1] - 2) / 2;
    return { subFilter, reserved, unused: reserved - cms.length };
  });
}

describe('the size of /Contents', () => {
  it('after the first seal with an authority, each B-LTA signature leaves under 2.5 KB of padding', async () => {
    const input = testPki.input('B-LTA');
    const first = (await sealPdf(await makePdf({ pages: 1 }), input)).bytes;
    const second = (await sealPdf(await makePdf({ pages: 1 }), input)).bytes;
    // the first seal learns the token's size from its signature timestamp: only the signature has the first-use reserve
    expect(padding(first)[0]?.unused).toBeGreaterThan(10_000);
    const [signature, stamp] = padding(second);
    expect(signature?.unused).toBeLessThan(2560);
    expect(stamp?.unused).toBeLessThan(1024);
    expect(second.length).toBeLessThan(first.length - 20_000);
    expect(pdfsig(second).match(/Signature is Valid\./g)?.length).toBe(1);
  });

  it('seals all the same when a token outgrows the ones before (a longer chain), with the first-use reserve', async () => {
    // A TSA of the test's own, whose second token carries its chain twice as long (a repeated certificate)
    const tsaDir = mkdtempSync(join(tmpdir(), 'esign-tsa-'));
    const tsa = await KeyFileSigner.open(tsaDir, { certify: (key, chain) => pki.sealChain(key, chain) });
    const chain = await tsa.certificateChain();
    let calls = 0;
    const growing: TimestampAuthority = {
      timestamp: async (digest) => {
        const certificates = ++calls > 2 ? [...chain, ...chain, ...chain] : chain;
        const signer: DocumentSigner = { algorithm: tsa.algorithm, certificateChain: () => Promise.resolve(certificates), signDigest: (d: Uint8Array) => tsa.signDigest(d) };
        const token = await issueTimestampToken(signer, { digest, time: new Date(), policy: '0.4.0.2023.1.1', certificate: chain[0] ?? new Uint8Array(), accuracySeconds: 1 });
        return tokenFromResponse(timestampResponse(token), digest);
      },
    };
    const input = testPki.input('B-T', { evidence: { level: 'B-T', timestamps: growing } });
    await sealPdf(await makePdf({ pages: 1 }), input);
    await sealPdf(await makePdf({ pages: 1 }), input);
    const grown = (await sealPdf(await makePdf({ pages: 1 }), input)).bytes;
    expect(calls).toBe(4); // the third seal's token did not fit, and was asked for again
    expect(allSignatures(grown)).toHaveLength(1);
    expect(pdfsig(grown)).toMatch(/Signature is Valid\./);
  });

  it('a fresh authority object starts with the first-use reserve', async () => {
    const input = testPki.input('B-T', { evidence: { level: 'B-T', timestamps: new HttpTimestampAuthority(pki.tsaUrl) } });
    const [signature] = padding((await sealPdf(await makePdf({ pages: 1 }), input)).bytes);
    expect(signature?.unused).toBeGreaterThan(10_000);
  });
});
