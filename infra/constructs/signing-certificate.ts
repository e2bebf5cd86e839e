/**
 * The seal key's certificate, issued at deploy by a custom resource (infra/custom-resources/signing-certificate.ts)
 * and kept in an SSM String parameter: a PEM of about 1.2 KB fits it (4 KB), and any stack reads it by name.
 */
import { CustomResource, Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { acknowledge, acknowledgeWildcard } from './nag.ts';
import { ServiceFunction } from './service-function.ts';

export interface SigningCertificateProps {
  key: IKey;
  commonName: string;
  organization: string;
  parameterName: string;
  logRetention: RetentionDays;
}

export class SigningCertificate extends Construct {
  readonly parameter: StringParameter;

  constructor(scope: Construct, id: string, props: SigningCertificateProps) {
    super(scope, id);
    const issuer = new ServiceFunction(this, 'Issuer', {
      entry: 'infra/custom-resources/signing-certificate.ts',
      description: 'Issues the seal key certificate through KMS (deploy time)',
      logRetention: props.logRetention,
      timeout: Duration.minutes(1),
    });
    issuer.addToRolePolicy(new PolicyStatement({ actions: ['kms:GetPublicKey', 'kms:Sign'], resources: [props.key.keyArn] }));

    const frameworkLogs = new LogGroup(this, 'ProviderLogs', { retention: props.logRetention });
    const frameworkRole = new Role(this, 'ProviderRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    frameworkRole.addToPrincipalPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [frameworkLogs.logGroupArn] }));
    const provider = new Provider(this, 'Provider', { onEventHandler: issuer.fn, frameworkOnEventRole: frameworkRole, logGroup: frameworkLogs });
    acknowledgeWildcard(frameworkRole, `${issuer.fn.functionArn}:*`, 'CDK Provider framework: invokes the certificate issuer function, any version of it');
    acknowledge(provider, 'L1', 'CDK Provider framework function: its runtime is chosen by aws-cdk-lib (the latest it knows for the region)');

    const certificate = new CustomResource(this, 'Certificate', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::SealCertificate',
      properties: { KeyId: props.key.keyArn, CommonName: props.commonName, Organization: props.organization, ValidYears: '10' },
    });
    this.parameter = new StringParameter(this, 'Pem', {
      parameterName: props.parameterName,
      description: `Seal certificate (PEM) of ${Stack.of(this).stackName}'s signing key, self-signed through KMS`,
      stringValue: certificate.getAttString('CertificatePem'),
    });
  }
}
