/**
 * SIGNER=csc in a function's environment: what it must name, where its secrets come from, and the seal port it gives.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSecrets } from '#shared/adapters/aws/secrets.ts';
import { buildDeps } from '#shared/deps.ts';
import { testConfig } from '#test/support/config.ts';

const sm = mockClient(SecretsManagerClient);
afterEach(() => sm.reset());

const CSC = { SIGNER: 'csc', CSC_BASE_URL: 'https://tsp.example.com/csc/v2/', CSC_CLIENT_ID: 'esign', CSC_CLIENT_SECRET: 'client-secret', CSC_CREDENTIAL_ID: 'seal-1' };

describe('the CSC signer configuration', () => {
  it('is the KMS key unless SIGNER says csc', () => {
    expect(testConfig().signer).toEqual({ kind: 'kms' });
    expect(testConfig({ ...CSC, CSC_PIN: '1234' }).signer).toEqual({
      kind: 'csc', baseUrl: 'https://tsp.example.com/csc/v2', clientId: 'esign', clientSecret: 'client-secret', credentialId: 'seal-1', pin: '1234', otp: null,
    });
  });

  it('fails the cold start without its provider, client or credential, or over plain HTTP outside the local runtime', () => {
    expect(() => testConfig({ SIGNER: 'csc', CSC_CLIENT_ID: 'esign' })).toThrow('SIGNER=csc needs CSC_BASE_URL, CSC_CLIENT_SECRET, CSC_CREDENTIAL_ID');
    expect(() => testConfig({ ...CSC, CSC_BASE_URL: 'http://tsp.example.com/csc/v2' })).toThrow('CSC_BASE_URL must be an https:// URL');
    expect(testConfig({ ...CSC, CSC_BASE_URL: 'http://127.0.0.1:9000/csc/v2', LOCAL_MODE: '1' }).signer).toMatchObject({ kind: 'csc' });
    expect(() => testConfig({ SIGNER: 'hsm' })).toThrow('SIGNER must be kms or csc');
  });

  it('reads the client secret and the PIN from Secrets Manager when their ARNs are given', async () => {
    sm.on(GetSecretValueCommand).callsFake(({ SecretId }: { SecretId: string }) => ({ SecretString: SecretId.endsWith('pin') ? '654321' : 'from-secrets-manager' }));
    const env = await resolveSecrets({ CSC_CLIENT_SECRET: 'in-secrets-manager', CSC_CLIENT_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:csc-client', CSC_PIN_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:csc-pin' }, new SecretsManagerClient({ region: 'eu-west-1' }));
    expect(env).toMatchObject({ CSC_CLIENT_SECRET: 'from-secrets-manager', CSC_PIN: '654321' });
  });

  it('gives the seal a CSC signer, loaded at its first use, whose algorithm is known once its chain is read', () => {
    const deps = buildDeps(testConfig({ ...CSC }));
    expect(() => deps.documentSigner.algorithm).toThrow('ask for its certificate chain first');
    expect('signingPublicKey' in deps.documentSigner).toBe(false);
  });
});
