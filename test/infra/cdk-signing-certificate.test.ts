/**
 * The deploy-time custom resource that issues the seal certificate: it asks KMS for the key's public half and
 * a signature, and returns a PEM certificate that verifies under that key. KMS is played by a local RSA key.
 */
import { constants, generateKeyPairSync, privateEncrypt, X509Certificate } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, it } from 'vitest';
import { handler } from '#infra/custom-resources/signing-certificate.ts';

const kms = mockClient(KMSClient);
afterAll(() => { kms.restore(); });

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');
const KEY_ARN = 'arn:aws:kms:eu-west-1:111111111111:key/seal';

kms.on(GetPublicKeyCommand, { KeyId: KEY_ARN }).resolves({
  KeyId: KEY_ARN, KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY', PublicKey: publicKey.export({ format: 'der', type: 'spki' }),
});
// RSASSA-PKCS1-v1_5 over a given SHA-256 digest, as KMS signs with MessageType DIGEST.
kms.on(SignCommand).callsFake((input: { KeyId: string; Message: Uint8Array; MessageType: string; SigningAlgorithm: string }) => {
  expect(input).toMatchObject({ KeyId: KEY_ARN, MessageType: 'DIGEST', SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256' });
  return { Signature: privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, input.Message])) };
});

const event = (type: 'Create' | 'Update' | 'Delete'): CloudFormationCustomResourceEvent => ({
  RequestType: type, ServiceToken: 'token', ResponseURL: 'https://example.test', StackId: 'stack', RequestId: 'request', LogicalResourceId: 'Certificate',
  ResourceType: 'Custom::SealCertificate', PhysicalResourceId: 'previous',
  ResourceProperties: { ServiceToken: 'token', KeyId: KEY_ARN, CommonName: 'Esign document seal', Organization: 'sign.example.com', ValidYears: '10' },
  OldResourceProperties: {},
} as CloudFormationCustomResourceEvent);

describe('seal certificate custom resource', () => {
  it('issues a certificate for the KMS key, signed by that key', async () => {
    const response = await handler(event('Create'));
    const certificate = new X509Certificate(response.Data?.CertificatePem ?? '');
    expect(certificate.subject).toContain('CN=Esign document seal');
    expect(certificate.verify(publicKey)).toBe(true);
    expect(certificate.publicKey.export({ format: 'der', type: 'spki' })).toEqual(publicKey.export({ format: 'der', type: 'spki' }));
    expect(Date.parse(certificate.validTo) - Date.now()).toBeGreaterThan(9 * 365 * 86_400_000);
    expect(response.PhysicalResourceId).toContain(KEY_ARN);
  });

  it('issues a new one on update and leaves everything as it is on delete', async () => {
    expect((await handler(event('Update'))).Data?.CertificatePem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const calls = kms.calls().length;
    expect(await handler(event('Delete'))).toEqual({ PhysicalResourceId: 'previous' });
    expect(kms.calls()).toHaveLength(calls);
  });
});
