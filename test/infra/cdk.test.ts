import { acknowledge } from '#infra/constructs/nag.ts';
import { Secret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager';
/**
 * The CDK app as a reviewer would read its templates: the manifest becomes exactly its functions and routes, each
 * function holds only what it binds, the stateful resources match the shared tables, and cdk-nag is clean.
 * The app is built once (bundling skipped: cdk-bundle.test.ts bundles the functions).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTableInput, TTL_ATTRIBUTE } from '#adapters/aws/table-schema.ts';
import { LIFECYCLE_RULES } from '#domain/retention.ts';
import { ACCESS } from '#infra/stacks/access.ts';
import { routes, workers, workflows } from '#infra/routes.ts';
import { TRAFFIC_KEY_PREFIXES } from '#infra/constructs/bind.ts';
import { SECRET_NAMES, secretArnVariable } from '#adapters/aws/secrets.ts';
import { REPO_ROOT, UNBOUND } from '#infra/constructs/service-function.ts';
import { createService, type Service } from '#infra/stacks/service.ts';
import { DEFAULT_SETTINGS, settingsFromContext } from '#infra/stacks/settings.ts';
import { SIGNING_PATHS, WebStack } from '#infra/stacks/web-stack.ts';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

type Json = Record<string, unknown>;
interface Resource { Type: string; Properties: Json }
interface Statement { Effect: string; Action: string | string[]; Resource: unknown }

const cdkContext = (JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Json }).context;
/** The cdk.json feature flags, without bundling (the stacks still reference a code asset per function). */
const newApp = (context: Json = {}) => new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });

let app: App;
let service: Service;
const templates = {} as Record<keyof Service, Template>;

beforeAll(() => {
  app = newApp();
  service = createService(app, { ...DEFAULT_SETTINGS, webDistPath: 'test/fixtures/no-such-folder' });
  for (const name of ['data', 'web', 'workflows', 'api'] as const) templates[name] = Template.fromStack(service[name]);
});

const resources = (template: Template, type: string) =>
  Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);

/** The manifest's functions in a template, by description (`GET /v1/...`, `worker: jobs`, `seal-envelope: Seal`). */
function functionByDescription(template: Template, description: string): { id: string; props: Json } {
  const found = resources(template, 'AWS::Lambda::Function').filter(([, r]) => r.Properties.Description === description);
  expect(found, description).toHaveLength(1);
  const [id, resource] = found[0]!;
  return { id, props: resource.Properties };
}

/** The statements of the role the function runs as (its DefaultPolicy; the role carries no inline or managed policy). */
function statementsOf(template: Template, fn: { props: Json }): Statement[] {
  const roleId = ((fn.props.Role as Json)['Fn::GetAtt'] as string[])[0];
  const role = (template.toJSON().Resources as Record<string, Resource>)[roleId!]!;
  expect(role.Properties.ManagedPolicyArns, 'no managed policies').toBeUndefined();
  expect(role.Properties.Policies, 'no inline policies').toBeUndefined();
  const policies = resources(template, 'AWS::IAM::Policy').filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId));
  return policies.flatMap(([, p]) => ((p.Properties.PolicyDocument as Json).Statement as Statement[]));
}

const actionsOf = (statements: Statement[]) => statements.flatMap((s) => [s.Action].flat()).sort();
const text = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));
const envOf = (fn: { props: Json }) => ((fn.props.Environment as Json).Variables as Record<string, unknown>);
const logicalIdOf = (stack: Stack, prefix: string) => {
  const ids = Object.keys(Template.fromStack(stack).toJSON().Resources as Json).filter((id) => id.startsWith(prefix));
  expect(ids, prefix).toHaveLength(1);
  return ids[0]!;
};

describe('CDK app: the manifest, exactly', () => {
  it('has one function and one route per route row, and no other function or route', () => {
    const fns = resources(templates.api, 'AWS::Lambda::Function');
    expect(fns).toHaveLength(routes.length);
    expect(fns.map(([, f]) => f.Properties.Description).sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    const routeKeys = resources(templates.api, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    expect(routeKeys.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    expect(resources(templates.web, 'AWS::ApiGatewayV2::Route')).toEqual([]);
    for (const fn of fns) {
      expect(fn[1].Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
      expect(envOf({ props: fn[1].Properties }).NODE_OPTIONS).toBe('--enable-source-maps');
    }
  });

  it('has one function per worker and per workflow task, and no other in the workflows stack', () => {
    const expected = [
      ...workers.map((w) => `worker: ${w.name}`),
      ...workflows.flatMap((wf) => Object.keys(wf.tasks).map((state) => `${wf.name}: ${state}`)),
    ];
    const fns = resources(templates.workflows, 'AWS::Lambda::Function').map(([, f]) => f.Properties.Description);
    expect(fns.sort()).toEqual(expected.sort());
  });

  it('gives every function its own log group with the configured retention', () => {
    for (const name of ['api', 'workflows'] as const) {
      for (const [, fn] of resources(templates[name], 'AWS::Lambda::Function')) {
        const logGroup = ((fn.Properties.LoggingConfig as Json).LogGroup as Json).Ref as string;
        templates[name].hasResource('AWS::Logs::LogGroup', Match.objectLike({}));
        expect((templates[name].toJSON().Resources as Record<string, Resource>)[logGroup]?.Properties.RetentionInDays).toBe(30);
      }
    }
  });

  it('has an access row for every manifest handler and none left over', () => {
    const handlers = new Set([...routes.map((r) => r.handler), ...workers.map((w) => w.handler), ...workflows.flatMap((wf) => Object.values(wf.tasks).map((t) => t.handler))]);
    expect(new Set(Object.keys(ACCESS))).toEqual(handlers);
  });
});

describe('CDK app: least privilege', () => {
  /** The traffic-control statement every route has: item writes limited to the rate counter and idempotency partitions. */
  /** GetSecretValue on a deployment secret, or Decrypt on its key through Secrets Manager: how a function reads a secret. */
const isSecretRead = (st: Statement) => actionsOf([st]).includes('secretsmanager:GetSecretValue') || text(st).includes('kms:ViaService');
const isTraffic = (s: Statement) => text(s).includes('dynamodb:LeadingKeys');
  const expectTraffic = (statements: Statement[]) => {
    const traffic = statements.filter(isTraffic);
    expect(traffic).toHaveLength(1);
    expect(traffic[0]).toMatchObject({
      Action: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': TRAFFIC_KEY_PREFIXES.map((p) => `${p}*`) } },
    });
    expect(text(traffic[0]!.Resource)).toContain('Table');
    expect(text(traffic[0]!.Resource)).not.toContain('index');
  };

  it('the OpenAPI function writes its logs and its own rate counters, and holds no document, queue or secret', () => {
    const fn = functionByDescription(templates.api, 'GET /v1/openapi.json');
    const statements = statementsOf(templates.api, fn);
    expect(statements).toHaveLength(2);
    expect(actionsOf(statements.filter((s) => !isTraffic(s)))).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    expect(text(statements[0]!.Resource)).toContain('OpenapiLogs');
    expectTraffic(statements);
    const env = envOf(fn);
    for (const name of ['BUCKET_NAME', 'JOBS_QUEUE_URL']) expect(env[name]).toBe(UNBOUND);
    for (const name of ['JWT_SECRET', 'LINK_SECRET', 'DATA_KEY']) expect(String(env[name])).toMatch(new RegExp(`^${UNBOUND}:${name}:`));
  });

  it('the token endpoint reads the table, writes only its rate counters, and holds the JWT secret, nothing else', () => {
    const fn = functionByDescription(templates.api, 'POST /oauth/token');
    const statements = statementsOf(templates.api, fn).filter((s) => !actionsOf([s]).every((a) => a.startsWith('logs:')));
    expectTraffic(statements);
    const reads = statements.filter((s) => !isTraffic(s) && !isSecretRead(s));
    expect(actionsOf(reads)).toEqual(['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Query']);
    for (const statement of reads) expect(text(statement.Resource)).toContain('Table');
    const indexes = [reads[1]!.Resource].flat().map(text);
    expect(indexes).toHaveLength(createTableInput('t').GlobalSecondaryIndexes!.length);
    for (const index of indexes) expect(index).toMatch(/\/index\/GSI\d"/);
    const secretReads = statements.filter(isSecretRead);
    expect(secretReads.map((st) => [actionsOf([st]), text(st.Resource)])).toEqual([
      [['secretsmanager:GetSecretValue'], expect.stringContaining('JwtSecret')],
      [['kms:Decrypt'], expect.stringContaining('DataKey')],
    ]);
    expect(text(secretReads[1])).toContain('kms:ViaService');
    const env = envOf(fn);
    expect(env.JWT_SECRET).toBe('in-secrets-manager'); // the value is read at cold start, never in the configuration
    expect(text(env.JWT_SECRET_ARN)).toContain('JwtSecret');
    expect(String(env.LINK_SECRET)).toMatch(new RegExp(`^${UNBOUND}:`));
    expect(String(env.DATA_KEY)).toMatch(new RegExp(`^${UNBOUND}:`));
    expect(env.BUCKET_NAME).toBe(UNBOUND);
  });

  it('routes that write the table need no separate traffic grant; every other route has exactly one', () => {
    for (const route of routes) {
      const statements = statementsOf(templates.api, functionByDescription(templates.api, `${route.method} ${route.path}`));
      expect(statements.filter(isTraffic), route.path).toHaveLength(ACCESS[route.handler]?.table === 'write' ? 0 : 1);
    }
  });

  it('the seal task signs with the seal key only, reads original/ and signatures/, writes sealed/, and writes the table (its stage record)', () => {
    const fn = functionByDescription(templates.workflows, 'seal-envelope: Seal');
    const statements = statementsOf(templates.workflows, fn);
    const sign = statements.filter((s) => actionsOf([s]).includes('kms:Sign'));
    expect(sign).toHaveLength(1);
    expect(actionsOf(sign)).toEqual(['kms:Sign']);
    expect(text(sign[0]!.Resource)).toContain('SealKey');
    expect(text(sign[0]!.Resource)).not.toContain('DataKey');
    const objects = (action: string) => statements.filter((s) => actionsOf([s]).includes(action)).flatMap((s) => [s.Resource].flat().map(text));
    expect(objects('s3:GetObject').map((r) => /\/(\w+)\/\*"/.exec(r)?.[1]).sort()).toEqual(['original', 'signatures']);
    expect(objects('s3:PutObject').map((r) => /\/(\w+)\/\*"/.exec(r)?.[1])).toEqual(['sealed']);
    expect(actionsOf(statements)).not.toContain('s3:DeleteObject');
    const env = envOf(fn);
    expect(text(env.SEAL_KEY_ID)).toContain('SealKey');
    expect(text(env.SEAL_CERTIFICATE_CHAIN_PEM)).toContain('SsmParameterValue');
    for (const name of ['JWT_SECRET', 'LINK_SECRET', 'DATA_KEY']) expect(String(env[name])).toMatch(new RegExp(`^${UNBOUND}:`));
  });

  it('no other function may sign with the seal key', () => {
    for (const name of ['api', 'workflows'] as const) {
      const signers = resources(templates[name], 'AWS::IAM::Policy').filter(([, p]) => text(p.Properties).includes('kms:Sign'));
      expect(signers.map(([id]) => id)).toEqual(name === 'workflows' ? [expect.stringMatching(/^SealRole/)] : []);
    }
  });

  it('a signer endpoint writes the table, stores drawn signatures, queues jobs and starts sealing', () => {
    const fn = functionByDescription(templates.api, 'POST /v1/signing/{token}/sign');
    const actions = actionsOf(statementsOf(templates.api, fn));
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 's3:PutObject', 'sqs:SendMessage', 'states:StartExecution', 'kms:GenerateDataKey']));
    expect(actions).not.toContain('s3:GetObject');
    expect(actions).not.toContain('ses:SendEmail');
    const env = envOf(fn);
    expect(text(env.LINK_SECRET_ARN)).toContain('LinkSecret');
    expect(String(env.JWT_SECRET)).toMatch(new RegExp(`^${UNBOUND}:`));
  });

  it('the OTP request sends email from the sender identity and SMS to phone numbers only', () => {
    const fn = functionByDescription(templates.api, 'POST /v1/signing/{token}/otp/request');
    const statements = statementsOf(templates.api, fn);
    const ses = statements.filter((s) => actionsOf([s]).includes('ses:SendEmail'));
    expect(text(ses[0]!.Resource)).toContain(`identity/${DEFAULT_SETTINGS.senderEmail}`);
    const sns = statements.filter((s) => actionsOf([s]).includes('sns:Publish'));
    expect(sns.map((s) => s.Effect).sort()).toEqual(['Allow', 'Deny']);
    expect(envOf(fn).MAIL_FROM).toBe(DEFAULT_SETTINGS.senderEmail);
  });

  it('webhook delivery functions hold DATA_KEY and run outside any VPC', () => {
    for (const [template, description] of [[templates.workflows, 'worker: jobs'], [templates.workflows, 'webhook-retry: Attempt'], [templates.api, 'POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend']] as const) {
      const fn = functionByDescription(template, description);
      expect(text(envOf(fn).DATA_KEY_ARN), description).toContain('DataKeySecret');
      expect(fn.props.VpcConfig, description).toBeUndefined();
    }
  });

  it('grants no action wildcard, and `*` resources only for SMS publishing and workflow log delivery', () => {
    for (const name of ['api', 'workflows'] as const) {
      for (const [id, policy] of resources(templates[name], 'AWS::IAM::Policy')) {
        for (const statement of (policy.Properties.PolicyDocument as Json).Statement as Statement[]) {
          if (statement.Effect !== 'Allow') continue;
          for (const action of [statement.Action].flat()) expect(action, id).not.toContain('*');
          if ([statement.Resource].flat().includes('*')) {
            expect(actionsOf([statement]).every((a) => a === 'sns:Publish' || a.startsWith('logs:')), `${id}: ${text(statement)}`).toBe(true);
          }
        }
      }
    }
  });

  it('functions read their secrets at run time: no secret value or reference in a template, and only the secrets each binds', () => {
    for (const name of ['api', 'workflows'] as const) {
      expect(text(templates[name].toJSON())).not.toContain('resolve:secretsmanager');
      for (const [, resource] of resources(templates[name], 'AWS::Lambda::Function')) {
        const fn = { props: resource.Properties };
        const env = envOf(fn);
        const bound = SECRET_NAMES.filter((secret) => env[secretArnVariable(secret)] !== undefined);
        const readable = statementsOf(templates[name], fn).filter((st) => actionsOf([st]).includes('secretsmanager:GetSecretValue'));
        const description = String(resource.Properties.Description);
        expect(readable.flatMap((st) => [st.Resource].flat().map(text)).sort(), description).toEqual(bound.map((secret) => text(env[secretArnVariable(secret)])).sort());
        const route = routes.find((r) => `${r.method} ${r.path}` === description);
        if (route) expect([...bound].sort(), description).toEqual([...(ACCESS[route.handler]?.secrets ?? [])].sort());
      }
    }
    templates.data.resourcePropertiesCountIs('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ PasswordLength: 64 }) }, 4);
  });
});

describe('CDK app: stateful resources', () => {
  it('the table is the shared schema: keys, KEYS_ONLY indexes, TTL, PITR, deletion protection, on demand', () => {
    const input = createTableInput('x');
    templates.data.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: input.KeySchema,
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      AttributeDefinitions: Match.arrayWith(input.AttributeDefinitions!.map((d) => Match.objectLike(d))),
      GlobalSecondaryIndexes: input.GlobalSecondaryIndexes!.map((i) => ({ IndexName: i.IndexName, KeySchema: i.KeySchema, Projection: { ProjectionType: 'KEYS_ONLY' } })),
    });
    templates.data.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
  });

  it('the seal key is an asymmetric RSA 2048 signing key; the data key rotates', () => {
    templates.data.hasResourceProperties('AWS::KMS::Key', { KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' });
    templates.data.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true, Description: Match.stringLikeRegexp('documents bucket') });
  });

  it('the documents bucket expires each retention class by its tag, and aborts abandoned uploads', () => {
    const buckets = resources(templates.data, 'AWS::S3::Bucket').filter(([, b]) => text(b.Properties.BucketName).includes('documents'));
    expect(buckets).toHaveLength(1);
    const bucket = buckets[0]![1].Properties;
    const rules = (bucket.LifecycleConfiguration as { Rules: Json[] }).Rules;
    expect(rules.filter((r) => r.TagFilters)).toEqual(LIFECYCLE_RULES.map((rule) => ({
      Id: rule.id, Status: 'Enabled', ExpirationInDays: rule.expireAfterDays, TagFilters: [{ Key: rule.tag.key, Value: rule.tag.value }],
    })));
    expect(rules).toContainEqual(expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }));
    expect(bucket).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [expect.objectContaining({ BucketKeyEnabled: true, ServerSideEncryptionByDefault: expect.objectContaining({ SSEAlgorithm: 'aws:kms' }) })] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    templates.data.hasResourceProperties('Custom::S3BucketNotifications', { NotificationConfiguration: { EventBridgeConfiguration: {} } });
    expect(bucket.VersioningConfiguration).toBeUndefined();
    templates.data.hasResourceProperties('AWS::S3::BucketPolicy', { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) } });
  });

  it('issues the seal certificate through a custom resource and keeps it in SSM for the seal task', () => {
    templates.data.hasResourceProperties('Custom::SealCertificate', { KeyId: { 'Fn::GetAtt': [logicalIdOf(service.data, 'SealKey'), 'Arn'] } });
    templates.data.hasResourceProperties('AWS::SSM::Parameter', { Name: '/Esign/seal-certificate-pem', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SealCertificate'), 'CertificatePem'] } });
    const issuer = functionByDescription(templates.data, 'Issues the seal key certificate through KMS (deploy time)');
    expect(actionsOf(statementsOf(templates.data, issuer)).filter((a) => a.startsWith('kms:'))).toEqual(['kms:GetPublicKey', 'kms:Sign']);
  });
});

describe('CDK app: workflows, queues, schedules, alarms', () => {
  it('each state machine is its ASL file with every task variable substituted by its function', () => {
    for (const workflow of workflows) {
      const [, machine] = resources(templates.workflows, 'AWS::StepFunctions::StateMachine').find(([, m]) => text(m.Properties.StateMachineName).includes(workflow.name))!;
      const asl = readFileSync(join(REPO_ROOT, workflow.definition), 'utf8');
      expect(machine.Properties.DefinitionString).toBe(asl);
      const substitutions = machine.Properties.DefinitionSubstitutions as Record<string, Json>;
      const variables = [...asl.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys(substitutions).sort()).toEqual([...new Set(variables)].sort());
      for (const [state, task] of Object.entries(workflow.tasks)) {
        const fn = functionByDescription(templates.workflows, `${workflow.name}: ${state}`);
        expect(substitutions[task.variable]).toEqual({ 'Fn::GetAtt': [fn.id, 'Arn'] });
      }
    }
  });

  it('the jobs queue has a dead-letter queue after five receives, an alarm on it, and reports partial batch failures', () => {
    const queues = resources(templates.workflows, 'AWS::SQS::Queue');
    const jobs = queues.find(([id]) => id.startsWith('JobsQueue'))!;
    expect(jobs[1].Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [expect.stringMatching(/^JobsDlq/), 'Arn'] }, maxReceiveCount: 5 });
    templates.workflows.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionResponseTypes: ['ReportBatchItemFailures'] });
    templates.workflows.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^JobsDlq'), 'QueueName'] } }],
      AlarmActions: [{ Ref: Match.stringLikeRegexp('^Alarms') }],
    });
    for (const [, queue] of queues) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('alarms on failed executions of every state machine', () => {
    const machines = resources(templates.workflows, 'AWS::StepFunctions::StateMachine').map(([id]) => id);
    expect(machines).toHaveLength(workflows.length);
    for (const id of machines) {
      templates.workflows.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'ExecutionsFailed', Dimensions: [{ Name: 'StateMachineArn', Value: { Ref: id } }] });
    }
  });

  it('runs each schedule worker at its manifest rate, and wires object deletions to their worker', () => {
    const rules = resources(templates.workflows, 'AWS::Events::Rule').map(([, r]) => r.Properties);
    for (const worker of workers) {
      const fn = functionByDescription(templates.workflows, `worker: ${worker.name}`);
      const targeting = rules.filter((r) => text(r.Targets).includes(fn.id));
      if (worker.trigger.kind === 'schedule') {
        const minutes = worker.trigger.everySeconds / 60;
        const unit = (n: number, name: string) => `rate(${String(n)} ${name}${n === 1 ? '' : 's'})`;
        const expected = minutes % 1440 === 0 ? unit(minutes / 1440, 'day') : minutes % 60 === 0 ? unit(minutes / 60, 'hour') : unit(minutes, 'minute');
        expect(targeting.map((r) => r.ScheduleExpression), worker.name).toEqual([expected]);
      } else if (worker.trigger.kind === 'objectRemoved') {
        expect(targeting).toHaveLength(1);
        expect(targeting[0]!.EventPattern).toMatchObject({
          source: ['aws.s3'], 'detail-type': ['Object Deleted'],
          detail: { object: { key: worker.trigger.prefixes.map((prefix) => ({ prefix })) } },
        });
      } else {
        expect(targeting, worker.name).toEqual([]);
      }
    }
  });
});

describe('CDK app: the front doors', () => {
  it('the HTTP API stage throttles and writes access logs without request paths', () => {
    templates.web.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default', AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: DEFAULT_SETTINGS.apiThrottle.rateLimit, ThrottlingBurstLimit: DEFAULT_SETTINGS.apiThrottle.burstLimit },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('routeKey') },
    });
    const format = text(resources(templates.web, 'AWS::ApiGatewayV2::Stage')[0]![1].Properties.AccessLogSettings);
    expect(format).not.toContain('$context.path');
  });

  it('CloudFront proves itself to the API with the origin secret and forwards the viewer address, never Host', () => {
    const distribution = text(resources(templates.web, 'AWS::CloudFront::Distribution')[0]![1].Properties);
    expect(distribution).toContain('x-origin-verify');
    expect(distribution).toContain('resolve:secretsmanager');
    const policy = resources(templates.web, 'AWS::CloudFront::OriginRequestPolicy')[0]![1].Properties;
    const headers = text(policy);
    expect(headers).toContain('CloudFront-Viewer-Address');
    expect(headers).not.toMatch(/"Host"/);
  });

  it('the signing host serves the pages from S3 through OAC, and the signer paths from the API, with security headers', () => {
    const distribution = resources(templates.web, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig as Json;
    const behaviors = distribution.CacheBehaviors as Json[];
    expect(behaviors.map((b) => b.PathPattern)).toEqual([...SIGNING_PATHS]);
    for (const behavior of behaviors) expect(behavior).toMatchObject({ ViewerProtocolPolicy: 'https-only', AllowedMethods: expect.arrayContaining(['POST']), ResponseHeadersPolicyId: expect.anything() });
    expect(text(distribution.Origins)).toContain('execute-api');
    expect(text(distribution.Origins)).toContain('OriginAccessControlId');
    expect(distribution.CustomErrorResponses).toBeUndefined(); // the page-route fallback is a viewer-request function
    expect((distribution.DefaultCacheBehavior as Json).FunctionAssociations).toHaveLength(1);
    templates.web.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Match.objectLike({ StrictTransportSecurity: Match.objectLike({ Override: true }), FrameOptions: { FrameOption: 'DENY', Override: true } }) },
    });
  });

  it('allows the signing host origin (the distribution domain) through CORS', () => {
    const cors = resources(templates.web, 'Custom::AWS')[0]![1].Properties;
    expect(text(cors.Create)).toContain('UpdateApi');
    expect(text(cors.Create)).toContain('SigningHost');
  });

  it('with a signing domain, serves it with its certificate and names it in CORS and SIGNING_URL', () => {
    const domainApp = newApp();
    const web = new WebStack(domainApp, 'Web', {
      settings: { ...DEFAULT_SETTINGS, signingDomain: 'sign.example.com', certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc', webDistPath: 'test/fixtures/no-such-folder' },
      logRetention: RetentionDays.ONE_MONTH, originVerifySecret: originSecretIn(domainApp),
    });
    const template = Template.fromStack(web);
    template.hasResourceProperties('AWS::CloudFront::Distribution', { DistributionConfig: Match.objectLike({ Aliases: ['sign.example.com'], ViewerCertificate: Match.objectLike({ MinimumProtocolVersion: 'TLSv1.2_2021' }) }) });
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://sign.example.com'] }) });
    template.resourceCountIs('Custom::AWS', 0);
    expect(web.signingUrl).toBe('https://sign.example.com');
  });
});

/** A stand-in for the data stack's origin secret, for web stacks built on their own. */
function originSecretIn(app: App): ISecret {
  const secret = new Secret(new Stack(app, 'Secrets'), 'OriginSecret', { generateSecretString: { excludePunctuation: true } });
  acknowledge(secret, 'SMG4', 'A test stand-in for the data stack\'s secret');
  return secret;
}

describe('CDK app: the built pages', () => {
  it('are deployed to the pages bucket when they exist at synth, with the deployment\'s own grants acknowledged', () => {
    const pages = mkdtempSync(join(tmpdir(), 'esign-pages-'));
    try {
      writeFileSync(join(pages, 'index.html'), '<!doctype html><title>sign</title>');
      const pagesApp = newApp();
      const web = new WebStack(pagesApp, 'Web', { settings: { ...DEFAULT_SETTINGS, webDistPath: pages }, logRetention: RetentionDays.ONE_MONTH, originVerifySecret: originSecretIn(pagesApp) });
      const template = Template.fromStack(web);
      template.hasResourceProperties('Custom::CDKBucketDeployment', { DistributionPaths: ['/*'], RetainOnDelete: false });
      expect(new AwsSolutionsChecks(pagesApp).validateScope(pagesApp).violations.map((v) => v.ruleName)).toEqual([]);
    } finally {
      rmSync(pages, { recursive: true, force: true });
    }
  });
});

describe('CDK app: settings', () => {
  it('a bare deploy needs no context', () => {
    expect(settingsFromContext(newApp().node)).toEqual(DEFAULT_SETTINGS);
  });

  it('reads context given on the command line (strings) and in cdk.json (JSON values)', () => {
    const settings = settingsFromContext(newApp({
      senderEmail: 'sign@example.com', smsSenderId: 'Esign', retentionClasses: '[30, 365]', rateLimits: { plans: { gold: { limit: 5000, windowSeconds: 60 } } },
      apiThrottle: '{"rateLimit": 10}', logRetentionDays: '90',
    }).node);
    expect(settings).toMatchObject({
      senderEmail: 'sign@example.com', smsSenderId: 'Esign', retentionClasses: [30, 365], logRetentionDays: 90,
      rateLimits: '{"plans":{"gold":{"limit":5000,"windowSeconds":60}}}', apiThrottle: { rateLimit: 10, burstLimit: 200 },
    });
  });

  it('refuses a domain without its certificate, and retention classes the code cannot tag', () => {
    expect(() => settingsFromContext(newApp({ signingDomain: 'sign.example.com' }).node)).toThrow(/certificateArn/);
    expect(() => settingsFromContext(newApp({ retentionClasses: [31] }).node)).toThrow(/retentionClasses/);
  });
});

describe('CDK app: cdk-nag', () => {
  it('AwsSolutions reports nothing that is not acknowledged with a reason', () => {
    const report = new AwsSolutionsChecks(app).validateScope(app);
    const open = report.violations.map((v) => `${v.ruleName} (${v.severity}): ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(open).toEqual([]);
  });

  it('every acknowledgement carries a reason', () => {
    const acknowledgements = app.node.findAll().flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:acknowledged-rules').map((m) => m.data as Record<string, unknown>));
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const entry of acknowledgements) {
      for (const [id, reason] of Object.entries(entry)) expect(text(reason).length, id).toBeGreaterThan(30);
    }
  });
});
