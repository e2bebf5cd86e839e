import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import { PDFDocument } from 'pdf-lib';
import { issueCrl } from '#shared/pki/certificate-authority.ts';
import { addDss } from '#shared/pki/dss.ts';
import { appendIncrementalUpdate, openForUpdate } from '#shared/sealing/incremental.ts';
import { signPdf } from '#shared/sealing/pades.ts';
import { pemCertificates } from '#shared/verify/verify-report.ts';
import { opensslSignDigest, tempDir } from '#test/pdf/signature-tools.ts';
import { makePdf } from './pdfs.ts';

export interface ForeignCa {
  dir: string;
  rootPem: string;
  rootFile: string;
  /** The signer's certificate and the root, DER. */
  chain: Uint8Array[];
  leafKeyPem: string;
  /** A one-page PDF signed by another tool, @signpdf (adbe.pkcs7.detached; its CMS carries the signer's certificate only). */
  signedWithSignpdf(): Promise<Uint8Array>;
  /** A DSS with the CA's CRL (nobody revoked) appended to `pdf` as an incremental update. */
  withCrl(pdf: Uint8Array): Promise<Uint8Array>;
}

/** A root and an RSA signer certificate made by openssl, not by this service. */
export function foreignCa(): ForeignCa {
  const dir = tempDir();
  const at = (name: string) => join(dir, name);
  const run = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '30', '-subj', '/CN=Foreign Test Root/O=Elsewhere',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('leaf.key'), '-out', at('leaf.csr'), '-subj', '/CN=Foreign Seal/O=Elsewhere');
  run('x509', '-req', '-in', at('leaf.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('leaf.pem'), '-days', '10');
  const rootPem = readFileSync(at('ca.pem'), 'utf8');
  const chain = [...pemCertificates(readFileSync(at('leaf.pem'), 'utf8')), ...pemCertificates(rootPem)];
  const caKey = readFileSync(at('ca.key'), 'utf8');
  // the signer's key and certificate as a PKCS#12 that @signpdf's node-forge reads (legacy ciphers, no password)
  const p12 = (): Buffer => {
    run('pkcs12', '-export', '-inkey', at('leaf.key'), '-in', at('leaf.pem'), '-out', at('leaf.p12'), '-passout', 'pass:', '-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1');
    return readFileSync(at('leaf.p12'));
  };
  return {
    dir, rootPem, rootFile: at('ca.pem'), chain, leafKeyPem: readFileSync(at('leaf.key'), 'utf8'),
    signedWithSignpdf: async () => {
      const doc = await PDFDocument.load(await makePdf({ pages: 1 }));
      pdflibAddPlaceholder({ pdfDoc: doc, reason: 'Approved', contactInfo: 'peer@example.com', name: 'Peer', location: 'Elsewhere' });
      const unsigned = await doc.save({ useObjectStreams: false });
      return new Uint8Array(await new SignPdf().sign(Buffer.from(unsigned), new P12Signer(p12())));
    },
    withCrl: async (pdf) => {
      const thisUpdate = new Date();
      const crl = await issueCrl({
        issuer: chain[1]!, key: { algorithm: 'rsa-sha256', signDigest: (digest) => Promise.resolve(opensslSignDigest(caKey, digest)) },
        thisUpdate, nextUpdate: new Date(thisUpdate.getTime() + 7 * 86_400_000), number: 1,
      });
      const { doc, tracker } = await openForUpdate(pdf);
      addDss(doc, { certificates: chain, crls: [crl], ocspResponses: [] });
      return appendIncrementalUpdate(pdf, doc, tracker);
    },
  };
}

/**
 * A PDF signed (PAdES B-B) under a CA made by openssl: its root, and where both are on disk. `revocation`: a later
 * update adds a DSS with the CA's CRL, so the signer's revocation can be checked.
 */
export async function foreignSealedPdf(options: { revocation?: boolean } = {}): Promise<{ bytes: Uint8Array; rootPem: string; rootFile: string; dir: string }> {
  const ca = foreignCa();
  const signer = { algorithm: 'rsa-sha256' as const, certificateChain: () => Promise.resolve(ca.chain), signDigest: (digest: Uint8Array) => Promise.resolve(opensslSignDigest(ca.leafKeyPem, digest)) };
  const signed = await signPdf(await makePdf({ pages: 1 }), signer, { signingTime: new Date() });
  return { bytes: options.revocation ? await ca.withCrl(signed) : signed, rootPem: ca.rootPem, rootFile: ca.rootFile, dir: ca.dir };
}
