import { X509Certificate, createHash, createPrivateKey, generateKeyPairSync, verify } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CERTIFICATE_FILE, KEY_FILE, KeyFileSigner, signRsaDigest } from '../../shared/adapters/local/key-file-signer.ts';
import { issueSelfSignedCertificate, toPem } from '../../shared/pdf/certificates.ts';
import { signPdf } from '../../shared/pdf/pades.ts';
import { makePdf } from '../support/pdfs.ts';
import { lastSignature, opensslCmsVerify, pdfsig, tempDir, tempFile } from '../pdf/signature-tools.ts';
import { spawnSync } from 'node:child_process';

const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

describe('KeyFileSigner', () => {
  it('creates an RSA-2048 key (mode 0600) and a self-signed certificate on first use, and reuses them after', async () => {
    const dir = join(tempDir(), 'keys'); // does not exist yet
    const first = await KeyFileSigner.open(dir);
    expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
    const [certificate] = await first.certificateChain();
    const cert = new X509Certificate(certificate!);
    expect(cert.subject).toBe('CN=E-Signature Service (local)\nO=E-Signature Service (local)'); // the default subject carries O
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(readFileSync(join(dir, CERTIFICATE_FILE), 'utf8')).toContain('-----BEGIN CERTIFICATE-----');
    const keyPem = readFileSync(join(dir, KEY_FILE), 'utf8');

    const again = await KeyFileSigner.open(dir);
    expect(await again.certificateChain()).toEqual([certificate]);
    expect(readFileSync(join(dir, KEY_FILE), 'utf8')).toBe(keyPem);
    expect(again.algorithm).toBe('rsa-sha256');
  });

  it('signs a digest as RSASSA-PKCS1-v1_5 with SHA-256: node and openssl verify it over the message', async () => {
    const dir = tempDir();
    const signer = await KeyFileSigner.open(dir);
    const message = new TextEncoder().encode('the bytes a CMS signs');
    const signature = await signer.signDigest(sha256(message));
    const cert = new X509Certificate((await signer.certificateChain())[0]!);
    expect(verify('sha256', message, cert.publicKey, signature)).toBe(true);
    const publicPem = cert.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const files = tempDir();
    const args = ['dgst', '-sha256', '-verify', tempFile(publicPem, 'pub.pem', files), '-signature', tempFile(signature, 'sig', files), tempFile(message, 'msg', files)];
    const openssl = spawnSync('openssl', args, { encoding: 'utf8' });
    expect(openssl.stdout).toContain('Verified OK');
    await expect(signer.signDigest(new Uint8Array(20))).rejects.toThrow(/32-byte/);
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
      publicKeySpkiDer: signer.publicKey(), algorithm: 'rsa-sha256', signDigest: (digest) => Promise.resolve(signRsaDigest(key, digest)),
      commonName: 'Imported seal', validFrom: new Date(now), validYears: 1,
    });
    await KeyFileSigner.storeChain(dir, toPem(imported)); // what seal-cert import writes
    now += 59_000;
    expect(await signer.certificateChain()).toEqual([before]);
    now += 2_000;
    expect(await signer.certificateChain()).toEqual([imported]);
  });

  it('seals a PDF that pdfsig and openssl accept', async () => {
    const signer = await KeyFileSigner.open(tempDir());
    const sealed = await signPdf(await makePdf({ pages: 2 }), signer, { signingTime: new Date() });
    expect(pdfsig(sealed)).toContain('Signature is Valid.');
    const { cms, content } = lastSignature(sealed);
    expect(opensslCmsVerify(cms, content).ok).toBe(true);
  });
});
