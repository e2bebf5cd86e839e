import { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { SsmCertificateStore } from '#shared/adapters/aws/ssm-certificate-store.ts';

describe('SsmCertificateStore', () => {
  it('writes a chain over 4 KB in the Advanced tier, a short one in Standard, and reads it back', async () => {
    const ssm = mockClient(SSMClient);
    ssm.on(GetParameterCommand).resolves({ Parameter: { Value: 'PEM' } });
    const store = new SsmCertificateStore(new SSMClient({}), '/esign/seal-certificate-chain');
    await store.write('x'.repeat(5000));
    await store.write('short');
    expect(ssm.commandCalls(PutParameterCommand).map((c) => c.args[0].input.Tier)).toEqual(['Advanced', 'Standard']);
    expect(await store.read()).toBe('PEM');
    ssm.on(GetParameterCommand).resolves({ Parameter: {} });
    await expect(store.read()).rejects.toThrow(/holds no certificate chain/);
    ssm.restore();
  });
});
