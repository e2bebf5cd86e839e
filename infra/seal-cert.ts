/**
 * `npm run seal-cert -- csr [--subject "CN=...,O=...,C=..."] [--organization-identifier VATDE-123456789]
 * [--policy OID]... [--out seal.csr]`: a certificate signing request for the seal key, signed through it (proof of
 * possession), for a CA to issue the seal certificate from; the policies are requested as certificatePolicies.
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
import { kmsSigningKey } from '#shared/adapters/aws/kms-signer.ts';
import { SsmCertificateStore } from '#shared/adapters/aws/ssm-certificate-store.ts';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { fromPem, toPem, OID } from '#shared/pki/certificates.ts';
import { certificationRequest, parseSubject, type SigningKey } from '#shared/pki/certificate-authority.ts';
import { sealChainParameter } from './stacks/settings.ts';
import { isMainModule } from './main-module.ts';

/** The e-seal profile's fields (EN 319 412-3): a name, the organisation and its country. */
export const DEFAULT_SUBJECT = 'CN=E-Signature Service Seal,O=E-Signature Service,C=DE';
/**
 * Beside the deploy's self-signed /<prefix>/seal-certificate-pem (prefix Esign by default), which a redeploy rewrites;
 * named after the key (`key/<id>` of its ARN), as the stacks name it (infra/stacks/settings.ts).
 */
export const defaultParameter = (keyId: string) => sealChainParameter('Esign', keyId.replace(/^arn:[^:]+:kms:[^:]*:[^:]*:key\//, ''));

/**
 * EN 319 412-1 §5.1.4: the identifier's type (VAT, NTR trade register, PSD payment services, LEI, or a national
 * scheme: two letters and ':'), the issuing country, '-', the identifier itself; e.g. VATDE-123456789.
 */
const ORGANIZATION_IDENTIFIER = /^(?:VAT|NTR|PSD|LEI|[A-Z]{2}:)[A-Z]{2}-\S+$/;
const POLICY_OID = /^[0-2](?:\.(?:0|[1-9]\d*))+$/;

/** The subject, with the organizationIdentifier (after O) when given; refuses a malformed one. */
export function sealSubject(subject: string, organizationIdentifier?: string): [string, string][] {
  const attributes = parseSubject(subject);
  if (organizationIdentifier !== undefined) {
    if (attributes.some(([oid]) => oid === OID.organizationIdentifier)) throw new Error('Give the organizationIdentifier once: in --subject or --organization-identifier');
    const o = attributes.findIndex(([oid]) => oid === OID.organization);
    attributes.splice(o < 0 ? attributes.length : o + 1, 0, [OID.organizationIdentifier, organizationIdentifier]);
  }
  for (const [oid, value] of attributes) {
    if (oid === OID.organizationIdentifier && !ORGANIZATION_IDENTIFIER.test(value)) {
      throw new Error(`Malformed organizationIdentifier "${value}": expected type (VAT, NTR, PSD, LEI or two letters and ':'), two-letter country, '-', identifier, e.g. VATDE-123456789`);
    }
  }
  return attributes;
}

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
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: {
    subject: { type: 'string' }, out: { type: 'string' }, 'organization-identifier': { type: 'string' }, policy: { type: 'string', multiple: true },
  } });
  const [command, file] = positionals;
  if (command === 'csr') {
    const subject = sealSubject(values.subject ?? DEFAULT_SUBJECT, values['organization-identifier']);
    const policies = values.policy ?? [];
    const bad = policies.find((oid) => !POLICY_OID.test(oid));
    if (bad !== undefined) throw new Error(`--policy takes a dotted OID such as 0.4.0.194112.1.3, not "${bad}"`);
    const key = await sealKey(env);
    const csr = await certificationRequest(subject, key.publicKey, key, policies);
    const pem = toPem(csr, 'CERTIFICATE REQUEST');
    if (values.out) await writeFile(values.out, pem);
    return values.out ? `Wrote ${values.out}` : pem;
  }
  if (command === 'import' && file) {
    const key = await sealKey(env);
    const pem = await readFile(file, 'utf8');
    const chain = fromPem(pem);
    checkChain(chain, key.publicKey);
    const where = await key.store(chain.map((der) => toPem(der)).join(''));
    return `Stored a chain of ${String(chain.length)} certificate(s) in ${where}`;
  }
  throw new Error('Usage: seal-cert csr [--subject "CN=...,O=...,C=..."] [--organization-identifier VATDE-123456789] [--policy OID]... [--out FILE] | seal-cert import CHAIN.pem');
}

if (isMainModule(import.meta.url)) {
  main(process.argv.slice(2)).then((out) => { process.stdout.write(`${out.trimEnd()}\n`); }, (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
