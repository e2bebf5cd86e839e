import { X509Certificate, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand, type KeySpec } from '@aws-sdk/client-kms';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { KmsDocumentSigner, issueKmsCertificate } from '../../shared/adapters/aws/kms-signer.ts';
import { signPdf } from '../../shared/sealing/pades.ts';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { rsaModulusLength, SEAL_KEY_SPECS, type SealKeySpec } from '#shared/adapters/seal-key-spec.ts';
import { SealKeyMismatch, assertSealKeyMatches } from '#shared/sealing/seal-key-check.ts';
import { toPem } from '#shared/pki/certificates.ts';
import { buildDeps } from '#shared/deps.ts';
import { makePdf } from '../support/pdfs.ts';
import { testConfig } from '../support/config.ts';
import { lastSignature, opensslCmsVerify, opensslSignDigest, pdfsig, qpdfCheck, tempDir } from '../pdf/signature-tools.ts';

const KEY_ID = 'arn:aws:kms:eu-west-1:111122223333:key/seal';
const kmsMock = mockClient(KMSClient);
const ssmMock = mockClient(SSMClient);
afterEach(() => { kmsMock.reset(); ssmMock.reset(); });

interface FakeKmsKey {
  spec: KeySpec;
  publicKey: KeyObject;
  signingAlgorithm: string;
}

/**
 * A KMS double backed by a real local key: GetPublicKey answers with its SPKI, Sign signs the given
 * digest with openssl (so the adapter's request, not our own signing code, decides the result).
 */
function fakeKmsKey(spec: SealKeySpec): FakeKmsKey {
  const modulusLength = rsaModulusLength(spec);
  const pair = modulusLength ? generateKeyPairSync('rsa', { modulusLength }) : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const keyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const signingAlgorithm = modulusLength ? 'RSASSA_PKCS1_V1_5_SHA_256' : 'ECDSA_SHA_256';
  kmsMock.on(GetPublicKeyCommand, { KeyId: KEY_ID }).resolves({
    KeyId: KEY_ID,
    KeySpec: spec,
    KeyUsage: 'SIGN_VERIFY',
    PublicKey: pair.publicKey.export({ type: 'spki', format: 'der' }),
  });
  kmsMock.on(SignCommand).callsFake((input: { KeyId?: string; Message?: Uint8Array; MessageType?: string; SigningAlgorithm?: string }) => {
    if (input.KeyId !== KEY_ID || input.MessageType !== 'DIGEST' || input.SigningAlgorithm !== signingAlgorithm) {
      throw new Error(`unexpected Sign request: ${JSON.stringify({ ...input, Message: undefined })}`);
    }
    if (input.Message?.length !== 32) throw new Error('DIGEST messages are 32 bytes for SHA-256');
    return { KeyId: KEY_ID, SigningAlgorithm: signingAlgorithm, Signature: opensslSignDigest(keyPem, input.Message) };
  });
  return { spec, publicKey: pair.publicKey, signingAlgorithm };
}

describe.each(SEAL_KEY_SPECS)('KmsDocumentSigner with a %s key', (spec) => {
  it('issues a self-signed certificate through KMS for the KMS public key', async () => {
    const key = fakeKmsKey(spec);
    const kms = new KMSClient({ region: 'eu-west-1' });
    const pem = await issueKmsCertificate(kms, KEY_ID, 'E-Signature Service', { organization: 'Acme' });
    const cert = new X509Certificate(pem);
    expect(cert.subject).toBe('CN=E-Signature Service\nO=Acme');
    expect(cert.verify(key.publicKey)).toBe(true);
    expect(kmsMock.commandCalls(SignCommand)).toHaveLength(1);
    expect(kmsMock.commandCalls(GetPublicKeyCommand)[0]!.args[0].input).toEqual({ KeyId: KEY_ID });
  });

  it('seals a PDF that pdfsig, qpdf and openssl accept, signing the digest in KMS', async () => {
    fakeKmsKey(spec);
    const kms = new KMSClient({ region: 'eu-west-1' });
    const signer = new KmsDocumentSigner(kms, KEY_ID, await issueKmsCertificate(kms, KEY_ID, 'E-Signature Service'));
    expect(signer.algorithm).toBe(spec === 'ECC_NIST_P256' ? 'ecdsa-sha256' : 'rsa-sha256');
    const sealed = await signPdf(await makePdf({ pages: 3 }), signer, { signingTime: new Date('2026-04-01T08:00:00Z') });
    const report = pdfsig(sealed);
    expect(report).toContain('Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(qpdfCheck(sealed).status).toBe(0);
    const { cms, content } = lastSignature(sealed);
    expect(opensslCmsVerify(cms, content)).toMatchObject({ ok: true });
    expect(kmsMock.commandCalls(SignCommand)).toHaveLength(2); // the certificate, then the seal
  });
});

describe('KmsDocumentSigner errors', () => {
  it('passes KMS failures through and refuses an empty answer', async () => {
    const kms = new KMSClient({ region: 'eu-west-1' });
    fakeKmsKey('RSA_2048');
    const signer = new KmsDocumentSigner(kms, KEY_ID, await issueKmsCertificate(kms, KEY_ID, 'Seal'));
    kmsMock.on(SignCommand).rejects(Object.assign(new Error('key disabled'), { name: 'DisabledException' }));
    await expect(signer.signDigest(new Uint8Array(32))).rejects.toThrow('key disabled');
    kmsMock.on(SignCommand).resolves({});
    await expect(signer.signDigest(new Uint8Array(32))).rejects.toThrow(/no signature/);
  });

  it('refuses key specs the SHA-256 port cannot use, and a chain without a certificate', async () => {
    const kms = new KMSClient({ region: 'eu-west-1' });
    kmsMock.on(GetPublicKeyCommand).resolves({ KeySpec: 'ECC_NIST_P384', KeyUsage: 'SIGN_VERIFY', PublicKey: new Uint8Array(10) });
    await expect(issueKmsCertificate(kms, KEY_ID, 'Seal')).rejects.toThrow(/Unsupported KMS key spec.*ECC_NIST_P384/);
    kmsMock.on(GetPublicKeyCommand).resolves({ KeySpec: 'RSA_2048', KeyUsage: 'ENCRYPT_DECRYPT', PublicKey: new Uint8Array(10) });
    await expect(issueKmsCertificate(kms, KEY_ID, 'Seal')).rejects.toThrow(/not a signing key/);
    expect(() => new KmsDocumentSigner(kms, KEY_ID, '')).toThrow(/no certificate/);
  });
});

describe('the seal key check with KMS', () => {
  const logged = () => {
    const errors: { message: string; fields?: Record<string, unknown> }[] = [];
    return { errors, logger: { info: () => undefined, warn: () => undefined, error: (message: string, fields?: Record<string, unknown>) => { errors.push({ message, fields }); } } };
  };

  it('passes a chain issued for the KMS key, asking KMS for the public key once', async () => {
    fakeKmsKey('ECC_NIST_P256');
    const kms = new KMSClient({ region: 'eu-west-1' });
    const signer = new KmsDocumentSigner(kms, KEY_ID, await issueKmsCertificate(kms, KEY_ID, 'Seal'));
    kmsMock.resetHistory();
    const { errors, logger } = logged();
    await assertSealKeyMatches({ documentSigner: signer, logger });
    await assertSealKeyMatches({ documentSigner: signer, logger });
    expect(errors).toEqual([]);
    expect(kmsMock.commandCalls(GetPublicKeyCommand)).toHaveLength(1);
  });

  it('seals unchecked, with a warning, when the role may not read the public key', async () => {
    fakeKmsKey('RSA_2048');
    const kms = new KMSClient({ region: 'eu-west-1' });
    const signer = new KmsDocumentSigner(kms, KEY_ID, await issueKmsCertificate(kms, KEY_ID, 'Seal'));
    kmsMock.on(GetPublicKeyCommand).rejects(Object.assign(new Error('not authorized to perform kms:GetPublicKey'), { name: 'AccessDeniedException' }));
    const warnings: string[] = [];
    await assertSealKeyMatches({ documentSigner: signer, logger: { ...logged().logger, warn: (message: string) => { warnings.push(message); } } });
    expect(warnings).toEqual(['seal key not checked against its certificate: the public key is not readable']);
  });

  it('refuses an imported chain for another key, logged for the alarm, and asks KMS again after a failed read', async () => {
    const key = fakeKmsKey('RSA_2048');
    const kms = new KMSClient({ region: 'eu-west-1' });
    const other = await KeyFileSigner.open(tempDir());
    const chainPem = (await other.certificateChain()).map((der) => toPem(der)).join('');
    const signer = new KmsDocumentSigner(kms, KEY_ID, chainPem);
    const { errors, logger } = logged();
    kmsMock.on(GetPublicKeyCommand, { KeyId: KEY_ID }).rejectsOnce(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }))
      .resolves({ KeyId: KEY_ID, KeySpec: key.spec, KeyUsage: 'SIGN_VERIFY', PublicKey: key.publicKey.export({ type: 'spki', format: 'der' }) });
    await expect(assertSealKeyMatches({ documentSigner: signer, logger })).rejects.toThrow('throttled');
    await expect(assertSealKeyMatches({ documentSigner: signer, logger })).rejects.toBeInstanceOf(SealKeyMismatch);
    expect(errors).toEqual([{ message: 'seal certificate does not match the signing key', fields: expect.objectContaining({ alarm: true }) as unknown }]);
    expect(kmsMock.commandCalls(SignCommand)).toHaveLength(0);
  });

  it('reads an imported chain again once a minute old on the service clock, and checks it against the key again', async () => {
    fakeKmsKey('RSA_2048');
    const kms = new KMSClient({ region: 'eu-west-1' });
    const first = await issueKmsCertificate(kms, KEY_ID, 'Seal one');
    const second = await issueKmsCertificate(kms, KEY_ID, 'Seal two');
    const otherKey = (await (await KeyFileSigner.open(tempDir())).certificateChain()).map((der) => toPem(der)).join('');
    let stored = first;
    ssmMock.on(GetParameterCommand, { Name: '/Esign/seal-chain' }).callsFake(() => ({ Parameter: { Value: stored } }));
    let now = Date.parse('2026-03-01T10:00:00Z');
    const deps = buildDeps(testConfig({ SEAL_KEY_ID: KEY_ID, SEAL_CERTIFICATE_PARAMETER: '/Esign/seal-chain' }), { clients: { kms: { region: 'eu-west-1' }, ssm: { region: 'eu-west-1' } } }, { clock: { now: () => new Date(now) } });
    const subject = async () => new X509Certificate((await deps.documentSigner.certificateChain())[0]!).subject;
    const { errors, logger } = logged();

    expect(await subject()).toMatch(/^CN=Seal one\b/);
    await assertSealKeyMatches({ documentSigner: deps.documentSigner, logger });
    stored = second; // seal-cert import
    now += 59_000;
    expect(await subject()).toMatch(/^CN=Seal one\b/);
    now += 2_000;
    expect(await subject()).toMatch(/^CN=Seal two\b/);
    await assertSealKeyMatches({ documentSigner: deps.documentSigner, logger });
    expect(ssmMock.commandCalls(GetParameterCommand)).toHaveLength(2);

    stored = otherKey; // a chain for another key, imported while the container runs, is refused
    now += 61_000;
    await expect(assertSealKeyMatches({ documentSigner: deps.documentSigner, logger })).rejects.toBeInstanceOf(SealKeyMismatch);
    expect(errors).toHaveLength(1);
  });
});
