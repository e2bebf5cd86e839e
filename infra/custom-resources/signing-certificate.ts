/**
 * Custom resource handler (Provider framework onEvent): issues the seal key's X.509 certificate at deploy time,
 * self-signed through KMS by the key itself (decision 43). The private key never leaves KMS; the PEM is returned to
 * the stack, which stores it in an SSM parameter for the sealing function.
 */
import { KMSClient } from '@aws-sdk/client-kms';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { issueKmsCertificate } from '#shared/adapters/aws/kms-signer.ts';

const kms = new KMSClient({});

export interface CertificateProperties {
  KeyId: string;
  CommonName: string;
  Organization?: string;
  ValidYears?: string;
}

interface Response {
  PhysicalResourceId: string;
  Data?: { CertificatePem: string };
}

/** Create and Update issue a new certificate (an update means the key or the subject changed); Delete has nothing to undo. */
export async function handler(event: CloudFormationCustomResourceEvent): Promise<Response> {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const props = event.ResourceProperties as unknown as CertificateProperties;
  const pem = await issueKmsCertificate(kms, props.KeyId, props.CommonName, {
    ...(props.Organization ? { organization: props.Organization } : {}),
    ...(props.ValidYears ? { validYears: Number(props.ValidYears) } : {}),
  });
  return { PhysicalResourceId: `${props.KeyId}:${new Date().toISOString()}`, Data: { CertificatePem: pem } };
}
