/**
 * The local certificate authority `npm start` runs: made once and kept under its directory, it certifies the
 * local seal key (not a chain someone imported), and serves its CRL at the address written into its certificates.
 */
import { X509Certificate, createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { HttpTimestampAuthority } from '#shared/adapters/http/timestamp-authority.ts';
import { signRsaDigest } from '#shared/adapters/local/key-file-signer.ts';
import { startLocalPki } from '#local/engines/local-ca.ts';
import { crlUrls, issueCertificate } from '#shared/pki/certificate-authority.ts';
import { OID } from '#shared/pki/certificates.ts';
import { tokenCertificates, tstInfoOf } from '#shared/pki/tsp.ts';
import { opensslTsVerify } from '#test/pdf/signature-tools.ts';

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

  it('stamps on the clock it is given, and past half its certificate\'s lifetime signs with a new key and certificate from the root', async () => {
    const DAY_MS = 86_400_000;
    let now = new Date(Date.now() + 3 * DAY_MS);
    const pki = await startLocalPki({ dir: mkdtempSync(join(tmpdir(), 'esign-pki-')), tsaValidDays: 100, now: () => now });
    const tsa = new HttpTimestampAuthority(pki.tsaUrl);
    const digest = createHash('sha256').update('archived').digest();
    const stamp = async () => {
      const token = await tsa.timestamp(digest);
      const certificate = tokenCertificates(token).map((der) => new X509Certificate(der)).find((c) => c.subject.includes('Timestamp Authority'));
      if (!certificate) throw new Error('the token carries no authority certificate');
      return { token, genTime: tstInfoOf(token).genTime, certificate };
    };
    const first = await stamp();
    expect(first.genTime.getTime()).toBe(Math.floor(now.getTime() / 1000) * 1000);
    now = new Date(Date.parse(first.certificate.validFrom) + 49 * DAY_MS);
    const before = await stamp();
    expect(before.certificate.fingerprint256).toBe(first.certificate.fingerprint256);
    now = new Date(Date.parse(first.certificate.validFrom) + 51 * DAY_MS);
    const after = await stamp();
    expect(after.certificate.fingerprint256).not.toBe(first.certificate.fingerprint256);
    expect(after.certificate.publicKey.export({ type: 'spki', format: 'der' })).not.toEqual(first.certificate.publicKey.export({ type: 'spki', format: 'der' }));
    expect(after.certificate.checkIssued(new X509Certificate(pki.rootDer))).toBe(true);
    expect(Date.parse(after.certificate.validFrom)).toBe(Math.floor(now.getTime() / 1000) * 1000);
    expect(Date.parse(after.certificate.validTo) - Date.parse(after.certificate.validFrom)).toBe(100 * DAY_MS);
    expect(opensslTsVerify(after.token, digest, pki.rootPem, now)).toMatchObject({ ok: true });
    expect((await stamp()).certificate.fingerprint256).toBe(after.certificate.fingerprint256);
    await pki.stop();
  });
});
