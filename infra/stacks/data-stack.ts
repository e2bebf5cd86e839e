/**
 * Stateful resources (decision 41, decision 43): the table, the documents bucket, the keys, the deployment secrets and the
 * seal certificate. All but the certificate are retained when the stack is deleted: they hold signed documents and
 * their evidence. What the other stacks need of them is handed off through SSM parameters (handoff.ts).
 */
import { Annotations, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership, type LifecycleRule } from 'aws-cdk-lib/aws-s3';
import { DOCUMENTS_CORS } from '#shared/http/signing-host-policy.ts';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { createTableInput, TTL_ATTRIBUTE } from '#shared/adapters/aws/table-schema.ts';
import { LIFECYCLE_RULES, RETENTION_DAYS } from '#shared/retention/retention.ts';
import type { SecretName } from '#shared/adapters/aws/secret-names.ts';
import { handoffName, publish } from '../constructs/handoff.ts';
import { acknowledge } from '../constructs/nag.ts';
import { SigningCertificate } from '../constructs/signing-certificate.ts';
import { SECRET_RESOURCES } from './environment.ts';
import { sealChainParameter, type ServiceSettings } from './settings.ts';

export interface DataStackProps extends StackProps {
  settings: ServiceSettings;
  logRetention: RetentionDays;
}

export class DataStack extends Stack {
  readonly table: Table;
  readonly documentsBucket: Bucket;
  readonly logsBucket: Bucket;
  readonly dataKey: Key;
  readonly signingKey: Key;
  readonly secrets: Record<SecretName, Secret>;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { settings } = props;

    this.dataKey = new Key(this, 'DataKey', {
      description: 'Encrypts the documents bucket and the deployment secrets',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.signingKey = new Key(this, 'SealKey', {
      description: 'Seals completed envelopes (PAdES): the private key never leaves KMS',
      keySpec: KeySpec[settings.sealKeySpec],
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    if (this.node.tryGetContext('sealKeySpec') === undefined) {
      Annotations.of(this.signingKey).addWarningV2('esign:seal-key-spec', `The seal key is ${settings.sealKeySpec} (no sealKeySpec context). A deployment whose seal key was made as RSA_2048 gets a new key (the old one is retained; a CA-issued chain must be imported again): pass -c sealKeySpec=RSA_2048 to keep it`);
    }

    this.secrets = {
      JWT_SECRET: this.secret('JwtSecret', 'Signs the bearer access tokens (HS256)'),
      LINK_SECRET: this.secret('LinkSecret', 'Signs the signing and download links, keys the OTP hashes'),
      DATA_KEY: this.secret('DataKeySecret', 'Seals client and webhook secrets stored in the table (AES-256-GCM)'),
      ORIGIN_VERIFY_SECRET: this.secret('OriginVerifySecret', 'Sent by CloudFront to the API: requests that carry it came through the signing host, whose viewer address is then trusted'),
    };

    this.table = tableFromSchema(this, 'Table');
    this.logsBucket = new Bucket(this, 'AccessLogs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.logsBucket, 'S1', 'This is the access-log bucket of the documents bucket; logging it into itself would loop');

    this.documentsBucket = new Bucket(this, 'Documents', {
      ...(settings.documentsBucketName ? { bucketName: settings.documentsBucketName } : {}),
      encryption: BucketEncryption.KMS,
      encryptionKey: this.dataKey,
      bucketKeyEnabled: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // Unversioned: a lifecycle expiration must delete the PDF for good (retention), and retention tagging rewrites
      // objects in place; integrity is carried by the SHA-256 hashes in the audit chain.
      versioned: false,
      lifecycleRules: lifecycleRules(this, settings),
      // Presigned URLs used from a browser: the signing page following a large PDF's 302, a browser's presigned POST.
      cors: [{
        allowedMethods: DOCUMENTS_CORS.allowedMethods.map((m) => HttpMethods[m]), allowedOrigins: [...DOCUMENTS_CORS.allowedOrigins],
        allowedHeaders: [...DOCUMENTS_CORS.allowedHeaders], maxAge: DOCUMENTS_CORS.maxAgeSeconds,
      }],
      // Deletions (lifecycle expirations included) reach the purge worker through EventBridge.
      eventBridgeEnabled: true,
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 'documents/',
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // eventBridgeEnabled is switched on by CDK's bucket-notifications handler, whose role CDK creates.
    const notifications = this.node.tryFindChild('BucketNotificationsHandler050a0587b7544547bf325f094a3db834')?.node.tryFindChild('Role');
    if (notifications) {
      acknowledge(notifications, 'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'CDK bucket-notifications handler (turns on EventBridge delivery for the documents bucket at deploy); its role is the construct\'s own');
    }
    new SigningCertificate(this, 'SealCertificate', {
      key: this.signingKey,
      commonName: `${settings.prefix} document seal`,
      organization: settings.signingDomain ?? settings.prefix,
      parameterName: handoffName(settings.prefix, 'sealCertificatePem'),
      logRetention: props.logRetention,
    });
    publish(this, settings.prefix, {
      tableName: this.table.tableName,
      tableArn: this.table.tableArn,
      bucketName: this.documentsBucket.bucketName,
      bucketArn: this.documentsBucket.bucketArn,
      encryptionKeyArn: this.dataKey.keyArn,
      sealKeyArn: this.signingKey.keyArn,
      sealKeyId: this.signingKey.keyId,
      ...Object.fromEntries(Object.entries(this.secrets).map(([name, secret]) => [SECRET_RESOURCES[name as SecretName], secret.secretArn])),
    });

    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'TABLE_NAME for npm run app:create' });
    new CfnOutput(this, 'DataKeySecretArn', { value: this.secrets.DATA_KEY.secretArn, description: 'DATA_KEY for npm run app:create (aws secretsmanager get-secret-value)' });
    new CfnOutput(this, 'DocumentsBucketName', { value: this.documentsBucket.bucketName });
    new CfnOutput(this, 'SealKeyArn', { value: this.signingKey.keyArn });
    new CfnOutput(this, 'SealCertificateParameter', { value: handoffName(settings.prefix, 'sealCertificatePem') });
    new CfnOutput(this, 'SealCertificateChainParameter', {
      value: sealChainParameter(settings.prefix, this.signingKey.keyId),
      description: 'SEAL_CERTIFICATE_PARAMETER for npm run seal-cert -- import (named after the seal key, so a new key never reads an old chain)',
    });
  }

  private secret(id: string, description: string): Secret {
    const secret = new Secret(this, id, {
      description,
      encryptionKey: this.dataKey,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(secret, 'SMG4', 'No automatic rotation: the functions read the value at cold start, so a manual rotation needs no redeploy, but rotating the link key voids the links already sent, the JWT key the access tokens issued, and DATA_KEY has no key versions yet');
    return secret;
  }
}

/** The table exactly as shared/adapters/aws/table-schema.ts defines it (the local runtime creates the same one). */
function tableFromSchema(scope: Construct, id: string): Table {
  const input = createTableInput('unused');
  const types = new Map((input.AttributeDefinitions ?? []).map((d) => [d.AttributeName, d.AttributeType]));
  const attribute = (name: string | undefined): Attribute => {
    const type = name ? types.get(name) : undefined;
    if (!name || !type) throw new Error(`table-schema.ts: key attribute ${String(name)} has no definition`);
    return { name, type: type === 'N' ? AttributeType.NUMBER : type === 'B' ? AttributeType.BINARY : AttributeType.STRING };
  };
  const keyOf = (schema: typeof input.KeySchema, kind: 'HASH' | 'RANGE') => schema?.find((k) => k.KeyType === kind)?.AttributeName;
  const sortKeyOf = (schema: typeof input.KeySchema) => (keyOf(schema, 'RANGE') ? { sortKey: attribute(keyOf(schema, 'RANGE')) } : {});

  const table = new Table(scope, id, {
    partitionKey: attribute(keyOf(input.KeySchema, 'HASH')),
    ...sortKeyOf(input.KeySchema),
    billingMode: input.BillingMode === 'PAY_PER_REQUEST' ? BillingMode.PAY_PER_REQUEST : BillingMode.PROVISIONED,
    timeToLiveAttribute: TTL_ATTRIBUTE,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of input.GlobalSecondaryIndexes ?? []) {
    if (!index.IndexName) continue;
    table.addGlobalSecondaryIndex({
      indexName: index.IndexName,
      partitionKey: attribute(keyOf(index.KeySchema, 'HASH')),
      ...sortKeyOf(index.KeySchema),
      projectionType: index.Projection?.ProjectionType === 'KEYS_ONLY' ? ProjectionType.KEYS_ONLY
        : index.Projection?.ProjectionType === 'INCLUDE' ? ProjectionType.INCLUDE : ProjectionType.ALL,
      ...(index.Projection?.NonKeyAttributes ? { nonKeyAttributes: index.Projection.NonKeyAttributes } : {}),
    });
  }
  return table;
}

/** One expiration rule per retention class, matched by the object's class tag; plus abandoned multipart and presigned uploads. */
function lifecycleRules(scope: Construct, settings: ServiceSettings): LifecycleRule[] {
  const omitted = RETENTION_DAYS.filter((d) => !settings.retentionClasses.includes(d));
  if (omitted.length > 0) {
    Annotations.of(scope).addWarningV2('esign:retention-classes', `No lifecycle rule for retention classes ${omitted.join(', ')} days: documents tagged with them are never expired`);
  }
  return [
    ...LIFECYCLE_RULES.filter((rule) => settings.retentionClasses.includes(rule.expireAfterDays)).map((rule): LifecycleRule => ({
      id: rule.id,
      tagFilters: { [rule.tag.key]: rule.tag.value },
      expiration: Duration.days(rule.expireAfterDays),
    })),
    { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
    // Presigned uploads are staged here until completed (decision 18); the blob sweep deletes one never completed after
    // a day, and this rule is the backstop should a stage record be lost.
    { id: 'expire-staged-uploads', prefix: 'uploads/', expiration: Duration.days(2) },
  ];
}

