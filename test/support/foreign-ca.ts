import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signPdf } from '#shared/sealing/pades.ts';
import { pemCertificates } from '#shared/verify/verify-report.ts';
import { opensslSignDigest, tempDir } from '#test/pdf/signature-tools.ts';
import { makePdf } from './pdfs.ts';

/** A PDF signed (PAdES B-B) under a CA made by openssl, not by this service: its root, and where both are on disk. */
export async function foreignSealedPdf(): Promise<{ bytes: Uint8Array; rootPem: string; rootFile: string; dir: string }> {
  const dir = tempDir();
  const at = (name: string) => join(dir, name);
  const run = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '30', '-subj', '/CN=Foreign Test Root/O=Elsewhere',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('leaf.key'), '-out', at('leaf.csr'), '-subj', '/CN=Foreign Seal/O=Elsewhere');
  run('x509', '-req', '-in', at('leaf.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('leaf.pem'), '-days', '10');
  const rootPem = readFileSync(at('ca.pem'), 'utf8');
  const keyPem = readFileSync(at('leaf.key'), 'utf8');
  const chain = [...pemCertificates(readFileSync(at('leaf.pem'), 'utf8')), ...pemCertificates(rootPem)];
  const signer = { algorithm: 'rsa-sha256' as const, certificateChain: () => Promise.resolve(chain), signDigest: (digest: Uint8Array) => Promise.resolve(opensslSignDigest(keyPem, digest)) };
  const bytes = await signPdf(await makePdf({ pages: 1 }), signer, { signingTime: new Date() });
  return { bytes, rootPem, rootFile: at('ca.pem'), dir };
}
