import { X509Certificate, createHash, createPrivateKey, generateKeyPairSync, verify } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CERTIFICATE_FILE, KEY_FILE, KeyFileSigner, keySpecOfKey, signDigestWithKey } from '../../shared/adapters/local/key-file-signer.ts';
import { SEAL_KEY_SPECS } from '../../shared/adapters/seal-key-spec.ts';
import { issueSelfSignedCertificate, toPem } from '../../shared/pki/certificates.ts';
import { signPdf } from '../../shared/sealing/pades.ts';
import { makePdf } from '../support/pdfs.ts';
import { lastSignature, opensslCmsVerify, pdfsig, tempDir, tempFile } from '../pdf/signature-tools.ts';
import { spawnSync } from 'node:child_process';

const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

describe('KeyFileSigner', () => {
  it('creates an ECDSA P-256 key (mode 0600) and a self-signed certificate on first use, and reuses them after', async () => {
    const dir = join(tempDir(), 'keys'); // does not exist yet
    const first = await KeyFileSigner.open(dir);
    expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
    const [certificate] = await first.certificateChain();
    const cert = new X509Certificate(certificate!);
    expect(cert.subject).toBe('CN=E-Signature Service (local)\nO=E-Signature Service (local)'); // the default subject carries O
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(readFileSync(join(dir, CERTIFICATE_FILE), 'utf8')).toContain('-----BEGIN CERTIFICATE-----');
    const keyPem = readFileSync(join(dir, KEY_FILE), 'utf8');

    const again = await KeyFileSigner.open(dir);
    expect(await again.certificateChain()).toEqual([certificate]);
    expect(readFileSync(join(dir, KEY_FILE), 'utf8')).toBe(keyPem);
    expect([again.algorithm, again.keySpec]).toEqual(['ecdsa-sha256', 'ECC_NIST_P256']);
  });

  it('keeps a stored RSA-2048 key whatever spec it is asked to make: the type is read from the key', async () => {
    const dir = tempDir();
    const made = await KeyFileSigner.open(dir, { keySpec: 'RSA_2048' });
    const again = await KeyFileSigner.open(dir, { keySpec: 'ECC_NIST_P256' });
    expect(await again.certificateChain()).toEqual(await made.certificateChain());
    expect([again.algorithm, again.keySpec]).toEqual(['rsa-sha256', 'RSA_2048']);
  });

  it('refuses a key of a type no seal is made with', () => {
    expect(() => keySpecOfKey(generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey)).toThrow(/RSA .* or ECDSA P-256/);
    expect(() => keySpecOfKey(generateKeyPairSync('ed25519').privateKey)).toThrow(/RSA .* or ECDSA P-256/);
  });

  describe.each(SEAL_KEY_SPECS)('with a %s key', (spec) => {
    it('signs a digest as the key\'s SHA-256 signature (PKCS#1 v1.5 or DER ECDSA): node and openssl verify it over the message', async () => {
      const signer = await KeyFileSigner.open(tempDir(), { keySpec: spec });
      expect(signer.keySpec).toBe(spec);
      expect(signer.algorithm).toBe(spec === 'ECC_NIST_P256' ? 'ecdsa-sha256' : 'rsa-sha256');
      const message = new TextEncoder().encode('the bytes a CMS signs');
      const signature = await signer.signDigest(sha256(message));
      const cert = new X509Certificate((await signer.certificateChain())[0]!);
      expect(cert.verify(cert.publicKey)).toBe(true);
      expect(verify('sha256', message, { key: cert.publicKey, dsaEncoding: 'der' }, signature)).toBe(true);
      const publicPem = cert.publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const files = tempDir();
      const args = ['dgst', '-sha256', '-verify', tempFile(publicPem, 'pub.pem', files), '-signature', tempFile(signature, 'sig', files), tempFile(message, 'msg', files)];
      const openssl = spawnSync('openssl', args, { encoding: 'utf8' });
      expect(openssl.stdout).toContain('Verified OK');
      await expect(signer.signDigest(new Uint8Array(20))).rejects.toThrow(/32-byte/);
    });

    it('seals a PDF that pdfsig and openssl cms -verify accept', async () => {
      const signer = await KeyFileSigner.open(tempDir(), { keySpec: spec });
      const sealed = await signPdf(await makePdf({ pages: 2 }), signer, { signingTime: new Date() });
      expect(pdfsig(sealed)).toContain('Signature is Valid.');
      const { cms, content } = lastSignature(sealed);
      expect(opensslCmsVerify(cms, content).ok).toBe(true);
    });
  });

  it('refuses a certificate file that does not certify the key file', async () => {
    const dir = tempDir();
    await KeyFileSigner.open(dir);
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    writeFileSync(join(dir, KEY_FILE), otherKey.export({ type: 'pkcs8', format: 'pem' }));
    await expect(KeyFileSigner.open(dir)).rejects.toThrow(/does not certify the key/);
  });

  it('reads a chain imported while it runs once the one it holds is a minute old on its clock', async () => {
    const dir = tempDir();
    let now = Date.parse('2026-03-01T10:00:00Z');
    const signer = await KeyFileSigner.open(dir, { clock: { now: () => new Date(now) } });
    const [before] = await signer.certificateChain();
    const key = createPrivateKey(readFileSync(join(dir, KEY_FILE), 'utf8'));
    const imported = await issueSelfSignedCertificate({
      publicKeySpkiDer: signer.publicKey(), algorithm: signer.algorithm, signDigest: (digest) => Promise.resolve(signDigestWithKey(key, digest)),
      commonName: 'Imported seal', validFrom: new Date(now), validYears: 1,
    });
    await KeyFileSigner.storeChain(dir, toPem(imported)); // what seal-cert import writes
    now += 59_000;
    expect(await signer.certificateChain()).toEqual([before]);
    now += 2_000;
    expect(await signer.certificateChain()).toEqual([imported]);
  });
});
