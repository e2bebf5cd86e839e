/**
 * The seal certificate chain (PEM, signing certificate first) in an SSM parameter: written by
 * `npm run seal-cert -- import`, read by the seal function at its first seal. A chain of three RSA certificates
 * is over the Standard tier's 4 KB, so the parameter is written in the Advanced tier when it must be.
 */
import { GetParameterCommand, PutParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';

const STANDARD_LIMIT = 4096;

export class SsmCertificateStore {
  constructor(
    private readonly ssm: SSMClient,
    private readonly name: string,
  ) {}

  async read(): Promise<string> {
    const result = await this.ssm.send(new GetParameterCommand({ Name: this.name }));
    const pem = result.Parameter?.Value;
    if (!pem) throw new Error(`The SSM parameter ${this.name} holds no certificate chain`);
    return pem;
  }

  async write(chainPem: string): Promise<void> {
    const tier = Buffer.byteLength(chainPem) > STANDARD_LIMIT ? 'Advanced' : 'Standard';
    await this.ssm.send(new PutParameterCommand({ Name: this.name, Value: chainPem, Type: 'String', Overwrite: true, Tier: tier, Description: 'Seal certificate chain (PEM, signing certificate first)' }));
  }
}
