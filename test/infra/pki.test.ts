/**
 * The local certificate authority `npm start` runs: made once and kept under its directory, it certifies the
 * local seal key (not a chain someone imported), and serves its CRL at the address written into its certificates.
 */
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { signRsaDigest } from '#shared/adapters/local/key-file-signer.ts';
import { startLocalPki } from '#local/engines/local-ca.ts';
import { crlUrls, issueCertificate } from '#shared/pki/certificate-authority.ts';
import { OID } from '#shared/pki/certificates.ts';

const spki = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' });

describe('local PKI engine', () => {
  it('keeps its root and port across restarts, and certifies the seal key with O, C and a CRL it serves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-pki-'));
    const first = await startLocalPki({ dir });
    const rootPem = first.rootPem;
    const [seal, root] = await first.sealChain(spki(), []);
    const leaf = new X509Certificate(seal!);
    expect(leaf.subject).toMatch(/CN=E-Signature Service \(local seal\)\nO=.+\nC=DE/);
    expect(leaf.checkIssued(new X509Certificate(root!))).toBe(true);
    expect(crlUrls(seal!)).toEqual([first.crlUrl]);
    const crl = pkijs.CertificateRevocationList.fromBER(new Uint8Array(await (await fetch(first.crlUrl)).arrayBuffer()));
    expect(crl.revokedCertificates ?? []).toEqual([]);
    await first.stop();
    const again = await startLocalPki({ dir });
    expect(again.rootPem).toBe(rootPem);
    expect(again.crlUrl).toBe(first.crlUrl);
    // its own chain is kept while current; an imported (CA-issued, not ours) chain is never replaced
    expect(await again.sealChain(spki(), [seal!, root!])).toEqual([seal, root]);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const foreignCa = await issueCertificate({
      subject: [[OID.commonName, 'Some CA']], publicKey: publicKey.export({ type: 'spki', format: 'der' }), profile: 'ca',
      key: { algorithm: 'rsa-sha256', signDigest: (d) => Promise.resolve(signRsaDigest(privateKey, d)) },
      validFrom: new Date(), validDays: 10,
    });
    const imported = [await issueCertificate({
      subject: [[OID.commonName, 'Imported']], publicKey: spki(), profile: 'seal', issuer: foreignCa,
      key: { algorithm: 'rsa-sha256', signDigest: (d) => Promise.resolve(signRsaDigest(privateKey, d)) },
      validFrom: new Date(), validDays: 10,
    }), foreignCa];
    expect(await again.sealChain(spki(), imported)).toBe(imported);
    await again.stop();
  });
});
