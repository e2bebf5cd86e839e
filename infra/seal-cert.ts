/**
 * `npm run seal-cert -- csr [--subject "CN=...,O=...,C=..."] [--out seal.csr]`: a certificate signing request for
 * the seal key, signed through it (proof of possession), for a CA to issue the seal certificate from.
 * `npm run seal-cert -- import chain.pem`: checks that the chain's first certificate certifies the seal key and
 * that each certificate is issued by the next, then stores the chain where the seal reads it.
 *
 * The seal key is the KMS key SEAL_KEY_ID when set (the chain then goes to the SSM parameter
 * SEAL_CERTIFICATE_PARAMETER, default /Esign/seal-certificate-chain/<key id>, which the seal function reads: the
 * data stack's output SealCertificateChainParameter), else the local key under DATA_DIR (default .data)/signing,
 * whose chain file the local stack reads.
 */
import { X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { KMSClient } from '@aws-sdk/client-kms';
import { SSMClient } from '@aws-sdk/client-ssm';
import { kmsSigningKey } from '#adapters/aws/kms-signer.ts';
import { SsmCertificateStore } from '#adapters/aws/ssm-certificate-store.ts';
import { KeyFileSigner } from '#adapters/local/key-file-signer.ts';
import { fromPem, toPem } from '#pdf/certificates.ts';
import { certificationRequest, parseSubject, type SigningKey } from '#pdf/pki.ts';
import { sealChainParameter } from './stacks/settings.ts';

/** The e-seal profile's fields (EN 319 412-3): a name, the organisation and its country. */
export const DEFAULT_SUBJECT = 'CN=E-Signature Service Seal,O=E-Signature Service,C=DE';
/**
 * Beside the deploy's self-signed /<prefix>/seal-certificate-pem (prefix Esign by default), which a redeploy rewrites;
 * named after the key (`key/<id>` of its ARN), as the stacks name it (infra/stacks/settings.ts).
 */
export const defaultParameter = (keyId: string) => sealChainParameter('Esign', keyId.replace(/^arn:[^:]+:kms:[^:]*:[^:]*:key\//, ''));

interface SealKey extends SigningKey {
  publicKey: Uint8Array;
  store(chainPem: string): Promise<string>;
}

async function sealKey(env: NodeJS.ProcessEnv): Promise<SealKey> {
  if (env.SEAL_KEY_ID) {
    const key = await kmsSigningKey(new KMSClient({}), env.SEAL_KEY_ID);
    const parameter = env.SEAL_CERTIFICATE_PARAMETER ?? defaultParameter(env.SEAL_KEY_ID);
    return { ...key, store: async (pem) => { await new SsmCertificateStore(new SSMClient({}), parameter).write(pem); return `SSM parameter ${parameter}`; } };
  }
  const dir = join(resolve(env.DATA_DIR ?? '.data'), 'signing');
  const signer = await KeyFileSigner.open(dir);
  return {
    publicKey: signer.publicKey(), algorithm: signer.algorithm, signDigest: (digest) => signer.signDigest(digest),
    store: async (pem) => { await KeyFileSigner.storeChain(dir, pem); return join(dir, 'signing-cert.pem'); },
  };
}

/** Each certificate issued (and signed) by the next one; the first one certifies `publicKey`. */
export function checkChain(chain: Uint8Array[], publicKey: Uint8Array): void {
  const [leaf] = chain;
  if (!leaf) throw new Error('The file holds no certificate');
  const certs = chain.map((der) => new X509Certificate(der));
  if (!Buffer.from(certs[0]?.publicKey.export({ type: 'spki', format: 'der' }) ?? []).equals(Buffer.from(publicKey))) {
    throw new Error('The first certificate does not certify the seal key: issue it from a CSR made with `seal-cert csr`');
  }
  certs.slice(0, -1).forEach((cert, i) => {
    const issuer = certs[i + 1];
    if (!issuer || !cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) throw new Error(`Certificate ${String(i + 1)} is not issued by certificate ${String(i + 2)}: order the chain leaf first`);
  });
  if (Date.parse(certs[0]?.validTo ?? '') < Date.now()) throw new Error('The seal certificate has expired');
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { subject: { type: 'string' }, out: { type: 'string' } } });
  const [command, file] = positionals;
  const key = await sealKey(env);
  if (command === 'csr') {
    const csr = await certificationRequest(parseSubject(values.subject ?? DEFAULT_SUBJECT), key.publicKey, key);
    const pem = toPem(csr, 'CERTIFICATE REQUEST');
    if (values.out) await writeFile(values.out, pem);
    return values.out ? `Wrote ${values.out}` : pem;
  }
  if (command === 'import' && file) {
    const pem = await readFile(file, 'utf8');
    const chain = fromPem(pem);
    checkChain(chain, key.publicKey);
    const where = await key.store(chain.map((der) => toPem(der)).join(''));
    return `Stored a chain of ${String(chain.length)} certificate(s) in ${where}`;
  }
  throw new Error('Usage: seal-cert csr [--subject "CN=...,O=...,C=..."] [--out FILE] | seal-cert import CHAIN.pem');
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  main(process.argv.slice(2)).then((out) => { process.stdout.write(`${out.trimEnd()}\n`); }, (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
