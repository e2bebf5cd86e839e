/**
 * `-c signer=csc`: the seal function, and only it, is told where the trust service provider's credential is and may
 * read the secrets the operator made for it; their values never appear in the template.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { settingsFromContext } from '#infra/stacks/settings.ts';
import { manifestFunctions, newApp, synthesize, TEST_SETTINGS, type SynthesizedFunction } from '#test/support/templates.ts';

const ARN = (name: string) => `arn:aws:secretsmanager:eu-west-1:111122223333:secret:${name}`;
const CONTEXT = {
  senderEmail: 'no-reply@example.com', signer: 'csc', cscBaseUrl: 'https://tsp.example.com/csc/v2', cscClientId: 'esign',
  cscCredentialId: 'seal-1', cscClientSecretArn: ARN('csc-client-AbCdEf'), cscPinArn: ARN('csc-pin'),
};
const SEAL = 'functions/workers/seal.ts';

let functions: SynthesizedFunction[];
beforeAll(() => {
  const settings = settingsFromContext(newApp(CONTEXT).node);
  functions = manifestFunctions(synthesize({ ...TEST_SETTINGS, signer: settings.signer, csc: settings.csc }));
}, 120_000);

const secretReads = (f: SynthesizedFunction) => f.statements.filter((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue')).flatMap((s) => [s.Resource].flat());

describe('CDK context signer=csc', () => {
  it('gives the seal function SIGNER=csc, the provider, the credential and the secrets by ARN, and the right to read them', () => {
    const seal = functions.find((f) => f.handler === SEAL);
    expect(seal?.env).toMatchObject({
      SIGNER: 'csc', CSC_BASE_URL: 'https://tsp.example.com/csc/v2', CSC_CLIENT_ID: 'esign', CSC_CREDENTIAL_ID: 'seal-1',
      CSC_CLIENT_SECRET_ARN: ARN('csc-client-AbCdEf'), CSC_PIN_ARN: ARN('csc-pin'),
    });
    expect(seal?.env).not.toHaveProperty('CSC_CLIENT_SECRET');
    expect(seal?.env).not.toHaveProperty('CSC_PIN');
    expect(secretReads(seal!)).toEqual(expect.arrayContaining([ARN('csc-client-AbCdEf'), ARN('csc-pin'), `${ARN('csc-pin')}-??????`]));
  });

  it('gives no other function the provider\'s settings or secrets', () => {
    for (const f of functions.filter((g) => g.handler !== SEAL)) {
      expect(Object.keys(f.env).filter((name) => name.startsWith('CSC_') || name === 'SIGNER'), f.description).toEqual([]);
      expect(JSON.stringify(secretReads(f)), f.description).not.toContain('csc-');
    }
  });

  it('refuses an incomplete or unsafe provider configuration at synth', () => {
    const settings = (context: Record<string, string>) => () => settingsFromContext(newApp({ ...CONTEXT, ...context }).node);
    expect(settings({ cscCredentialId: '', cscClientSecretArn: '' })).toThrow('signer=csc needs cscCredentialId, cscClientSecretArn');
    expect(settings({ cscBaseUrl: 'http://tsp.example.com/csc/v2' })).toThrow('cscBaseUrl must be an https:// URL');
    expect(settings({ cscPinArn: 'my-pin' })).toThrow('cscPinArn must be a Secrets Manager secret ARN');
    expect(settings({ signer: 'hsm' })).toThrow('signer must be kms or csc');
    expect(settingsFromContext(newApp({ senderEmail: 'no-reply@example.com' }).node)).toMatchObject({ signer: 'kms', csc: null });
  });
});
