/**
 * Bring your own seal certificate: a CSR made through the seal key, issued by a CA (openssl here, as a real CA
 * would), imported back after the chain is checked; the seal then carries the whole chain.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { main } from '#infra/seal-cert.ts';
import { signPdf } from '#shared/sealing/pades.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { lastSignature, opensslCmsVerify, tempDir } from '#test/pdf/signature-tools.ts';

const openssl = (...args: string[]) => execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('npm run seal-cert (local key)', () => {
  it('writes a CSR signed by the seal key, imports the CA-issued chain, and the seal carries it', async () => {
    const data = tempDir();
    const env = { DATA_DIR: data };
    const csr = join(data, 'seal.csr');
    expect(await main(['csr', '--subject', 'CN=ACME Seal,O=ACME Ltd,C=PL', '--out', csr], env)).toContain(csr);
    expect(openssl('req', '-in', csr, '-noout', '-verify', '-subject')).toMatch(/CN\s*=\s*ACME Seal, O\s*=\s*ACME Ltd, C\s*=\s*PL/);
    // A CA issues the certificate from the CSR
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(data, 'ca.key'), '-out', join(data, 'ca.pem'), '-subj', '/CN=Test CA/O=Test/C=DE', '-days', '30');
    openssl('x509', '-req', '-in', csr, '-CA', join(data, 'ca.pem'), '-CAkey', join(data, 'ca.key'), '-CAcreateserial', '-out', join(data, 'seal.pem'), '-days', '30');
    const chain = join(data, 'chain.pem');
    writeFileSync(chain, readFileSync(join(data, 'seal.pem'), 'utf8') + readFileSync(join(data, 'ca.pem'), 'utf8'));
    expect(await main(['import', chain], env)).toMatch(/Stored a chain of 2 certificate\(s\)/);
    const signer = await KeyFileSigner.open(join(data, 'signing'));
    expect((await signer.certificateChain()).length).toBe(2);
    const { cms, content } = lastSignature(await signPdf(await makePdf(), signer, { signingTime: new Date() }));
    expect(opensslCmsVerify(cms, content, readFileSync(join(data, 'ca.pem'), 'utf8'))).toMatchObject({ ok: true });
  });

  it('refuses a chain whose first certificate is for another key, or out of order', async () => {
    const data = tempDir();
    const env = { DATA_DIR: data };
    await main(['csr'], env); // creates the seal key
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(data, 'other.key'), '-out', join(data, 'other.pem'), '-subj', '/CN=Other', '-days', '30');
    await expect(main(['import', join(data, 'other.pem')], env)).rejects.toThrow(/does not certify the seal key/);
    expect(await main(['csr'], env)).toMatch(/BEGIN CERTIFICATE REQUEST/);
  });

  it('puts the organizationIdentifier in the subject and requests the qualified policies', async () => {
    const data = tempDir();
    const csr = join(data, 'seal.csr');
    await main(['csr', '--subject', 'CN=ACME Seal,O=ACME GmbH,C=DE', '--organization-identifier', 'VATDE-123456789',
      '--policy', '0.4.0.194112.1.3', '--policy', '1.3.6.1.4.1.99999.1', '--out', csr], { DATA_DIR: data });
    const text = openssl('req', '-in', csr, '-noout', '-text', '-verify');
    expect(text).toMatch(/Subject: CN\s*=\s*ACME Seal, O\s*=\s*ACME GmbH, organizationIdentifier\s*=\s*VATDE-123456789, C\s*=\s*DE/);
    expect(text).toMatch(/Requested Extensions:\s*X509v3 Certificate Policies:\s*Policy: 0\.4\.0\.194112\.1\.3\s*Policy: 1\.3\.6\.1\.4\.1\.99999\.1/);
    // Fails unless the signature over the request (attributes included) checks out
    expect(openssl('req', '-in', csr, '-noout', '-verify')).toBe('');
  });

  it('refuses a malformed organizationIdentifier or policy OID before touching the key', async () => {
    const data = tempDir();
    const env = { DATA_DIR: data };
    for (const bad of ['DE123456789', 'VATDE123456789', 'VATD-123', 'XYZDE-1', 'VATDE-', 'vatde-123']) {
      await expect(main(['csr', '--organization-identifier', bad], env)).rejects.toThrow(`Malformed organizationIdentifier "${bad}"`);
    }
    await expect(main(['csr', '--subject', 'CN=S,organizationIdentifier=VAT-DE1', '--out', join(data, 'x.csr')], env)).rejects.toThrow(/Malformed organizationIdentifier/);
    await expect(main(['csr', '--policy', 'QCP-l-qscd'], env)).rejects.toThrow(/--policy takes a dotted OID/);
    expect(existsSync(join(data, 'signing'))).toBe(false);
    for (const good of ['NTRDE-HRB12345', 'LEIXG-5299000J2N45DDNE4Y28', 'PSDBE-NBB-0123456789', 'AB:FR-77']) {
      expect(await main(['csr', '--organization-identifier', good], env)).toMatch(/BEGIN CERTIFICATE REQUEST/);
    }
  });
});
