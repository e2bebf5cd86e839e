/**
 * The CDK app's stacks as a reviewer would read them: the stateful resources match the shared tables, the stacks hand
 * values to each other through SSM parameters read at deploy (no exports to pin, no stale outputs), the front doors,
 * the settings a deploy needs, and cdk-nag clean. Built once without bundling; the functions: cdk.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTableInput, TTL_ATTRIBUTE } from '#shared/adapters/aws/table-schema.ts';
import { LIFECYCLE_RULES } from '#shared/retention/retention.ts';
import { REPO_ROOT } from '#infra/constructs/bundling.ts';
import { HANDOFF_KEYS, handoffName } from '#infra/constructs/handoff.ts';
import { bucketNameProblems, DEFAULT_SETTINGS, settingsFromContext } from '#infra/stacks/settings.ts';
import { AUTHORING_PATHS, CONSOLE_PATHS, SIGNING_PATHS, WebStack } from '#infra/stacks/web-stack.ts';
import { workers, workflows } from '#infra/routes.ts';
import { allTemplates, manifestFunctions, newApp, resolverFor, resourcesOfType, synthesize, TEST_SETTINGS, type Json, type Synthesized } from '#test/support/templates.ts';

let synthesized: Synthesized;
beforeAll(() => { synthesized = synthesize(); });

const text = (value: unknown) => JSON.stringify(value);
const templateOf = (name: keyof Synthesized['templates']) => synthesized.templates[name];

describe('CDK app: stacks hand values to each other through SSM, read at every deploy', () => {
  it('no template exports, imports or reads another stack\'s outputs', () => {
    for (const [name, template] of allTemplates(synthesized)) {
      const json = template.toJSON() as { Outputs?: Record<string, Json> };
      expect(text(json), name).not.toMatch(/Fn::ImportValue|Fn::GetStackOutput/);
      for (const [id, output] of Object.entries(json.Outputs ?? {})) expect(output.Export, `${name}.${id}`).toBeUndefined();
    }
  });

  it('each shared value is written once, by its producer, and read by consumers as an SSM-typed parameter', () => {
    const written = new Map<string, string>();
    for (const [name, template] of allTemplates(synthesized)) {
      for (const [, parameter] of resourcesOfType(template, 'AWS::SSM::Parameter')) {
        const key = String(parameter.Properties.Name);
        expect(written.has(key), key).toBe(false);
        written.set(key, name);
      }
    }
    for (const key of HANDOFF_KEYS) expect(written.get(handoffName('Esign', key)), key).toBeDefined();
    for (const [name, template] of allTemplates(synthesized).filter(([name]) => name !== 'data')) {
      const parameters = Object.values((template.toJSON() as { Parameters?: Record<string, { Type: string; Default?: string }> }).Parameters ?? {});
      const reads = parameters.filter((p) => p.Type === 'AWS::SSM::Parameter::Value<String>');
      expect(reads.length, name).toBeGreaterThan(0);
      for (const read of reads) expect(written.get(String(read.Default)), `${name} reads ${String(read.Default)}`).not.toBe(name);
    }
  });

  it('deploys producers before consumers', () => {
    const { service } = synthesized;
    const dependsOn = (stack: keyof typeof service) => service[stack].dependencies.map((s) => s.stackName).sort();
    expect(dependsOn('data')).toEqual([]);
    expect(dependsOn('web')).toEqual(['EsignData']);
    expect(dependsOn('workflows')).toEqual(['EsignData', 'EsignWeb']);
    expect(dependsOn('api')).toEqual(['EsignData', 'EsignWeb', 'EsignWorkflows']);
  });

  it('the api stack adds its routes to the web stack\'s HTTP API, by the id it reads', () => {
    const resolve = resolverFor(templateOf('api'), (key) => `{{${key}}}`);
    for (const [, route] of resourcesOfType(templateOf('api'), 'AWS::ApiGatewayV2::Route')) expect(resolve(route.Properties.ApiId)).toBe('{{apiId}}');
  });
});

describe('CDK app: stateful resources', () => {
  it('the table is the shared schema: keys, KEYS_ONLY indexes, TTL, PITR, deletion protection, on demand', () => {
    const input = createTableInput('x');
    templateOf('data').hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: input.KeySchema,
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      AttributeDefinitions: Match.arrayWith(input.AttributeDefinitions!.map((d) => Match.objectLike(d))),
      GlobalSecondaryIndexes: input.GlobalSecondaryIndexes!.map((i) => ({ IndexName: i.IndexName, KeySchema: i.KeySchema, Projection: { ProjectionType: 'KEYS_ONLY' } })),
    });
    templateOf('data').hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
  });

  it('the seal key is an asymmetric ECC P-256 signing key by default; the data key rotates', () => {
    templateOf('data').hasResourceProperties('AWS::KMS::Key', { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
    templateOf('data').hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true, Description: Match.stringLikeRegexp('documents bucket') });
  });

  const documentsBucket = (template: Template) => {
    const buckets = resourcesOfType(template, 'AWS::S3::Bucket').filter(([, b]) => text(b.Properties.LifecycleConfiguration).includes('retention'));
    expect(buckets).toHaveLength(1);
    return buckets[0]![1];
  };

  it('the documents bucket expires each retention class by its tag, and aborts abandoned uploads', () => {
    const bucket = documentsBucket(templateOf('data')).Properties;
    const rules = (bucket.LifecycleConfiguration as { Rules: Json[] }).Rules;
    expect(rules.filter((r) => r.TagFilters)).toEqual(LIFECYCLE_RULES.map((rule) => ({
      Id: rule.id, Status: 'Enabled', ExpirationInDays: rule.expireAfterDays, TagFilters: [{ Key: rule.tag.key, Value: rule.tag.value }],
    })));
    expect(rules).toContainEqual(expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }));
    expect(bucket).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [expect.objectContaining({ BucketKeyEnabled: true, ServerSideEncryptionByDefault: expect.objectContaining({ SSEAlgorithm: 'aws:kms' }) })] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    templateOf('data').hasResourceProperties('Custom::S3BucketNotifications', { NotificationConfiguration: { EventBridgeConfiguration: {} } });
    expect(bucket.VersioningConfiguration).toBeUndefined();
    templateOf('data').hasResourceProperties('AWS::S3::BucketPolicy', { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) } });
  });

  it('the documents bucket gets a generated name (a retained bucket never blocks a redeploy), or the one given', () => {
    expect(documentsBucket(templateOf('data')).Properties.BucketName).toBeUndefined();
    const named = synthesize({ ...TEST_SETTINGS, documentsBucketName: 'acme-esign-documents' });
    expect(documentsBucket(named.templates.data).Properties.BucketName).toBe('acme-esign-documents');
  });

  it('issues the seal certificate through a custom resource and hands it to the seal task through SSM', () => {
    const sealKey = resourcesOfType(templateOf('data'), 'AWS::KMS::Key').find(([, k]) => k.Properties.KeyUsage === 'SIGN_VERIFY')![0];
    templateOf('data').hasResourceProperties('Custom::SealCertificate', { KeyId: { 'Fn::GetAtt': [sealKey, 'Arn'] } });
    templateOf('data').hasResourceProperties('AWS::SSM::Parameter', { Name: '/Esign/seal-certificate-pem', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SealCertificate'), 'CertificatePem'] } });
    const issuer = resourcesOfType(templateOf('data'), 'AWS::Lambda::Function').find(([, f]) => f.Properties.Description === 'Issues the seal key certificate through KMS (deploy time)');
    expect(issuer).toBeDefined();
    expect(text(templateOf('data').toJSON())).toMatch(/"kms:GetPublicKey","kms:Sign"/);
  });
});

describe('CDK app: observability', () => {
  it('traces every function with X-Ray, logs at the configured level, and builds a dashboard over the EMF metrics the code writes', () => {
    for (const fn of manifestFunctions(synthesized)) {
      expect(fn.props.TracingConfig, fn.handler).toEqual({ Mode: 'Active' });
      const onAnything = [...fn.statements, ...fn.tracing].filter((st) => st.Resource === '*').flatMap((st) => [st.Action].flat());
      expect(onAnything, fn.handler).toEqual(expect.arrayContaining(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']));
      expect(fn.env, fn.handler).toMatchObject({ POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_SERVICE_NAME: 'esign' });
    }
    const dashboards = resourcesOfType(templateOf('api'), 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = text(dashboards[0]?.[1].Properties.DashboardBody);
    for (const metric of ['AuditEvents', 'SealDuration', 'WebhookDeliveryFailures', 'OutboxDeadLetters']) expect(body).toContain(metric);
    for (const event of ['envelope.sent', 'envelope.completed', 'signer.reminded']) expect(body).toContain(event);
    const debug = synthesize({ ...TEST_SETTINGS, logLevel: 'DEBUG' });
    for (const template of Object.values(debug.nested)) expect(text(template.toJSON())).toContain('"POWERTOOLS_LOG_LEVEL":"DEBUG"');
  });
});

describe('CDK app: workflows, queues, schedules, alarms', () => {
  it('each state machine is its ASL file with every task variable substituted by its function', () => {
    const functions = manifestFunctions(synthesized);
    for (const workflow of workflows) {
      const [, machine] = resourcesOfType(templateOf('workflows'), 'AWS::StepFunctions::StateMachine').find(([, m]) => text(m.Properties.StateMachineName).includes(workflow.name))!;
      const asl = readFileSync(join(REPO_ROOT, workflow.definition), 'utf8');
      expect(machine.Properties.DefinitionString).toBe(asl);
      const substitutions = machine.Properties.DefinitionSubstitutions as Record<string, Json>;
      const variables = [...asl.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys(substitutions).sort()).toEqual([...new Set(variables)].sort());
      for (const [state, task] of Object.entries(workflow.tasks)) {
        const fn = functions.find((f) => f.description === `${workflow.name}: ${state}`)!;
        expect(substitutions[task.variable]).toEqual({ 'Fn::GetAtt': [fn.logicalId, 'Arn'] });
      }
    }
  });

  it('the jobs queue has a dead-letter queue after five receives, an alarm on it, and reports partial batch failures', () => {
    const queues = resourcesOfType(templateOf('workflows'), 'AWS::SQS::Queue');
    const jobs = queues.find(([id]) => id.startsWith('JobsQueue'))!;
    expect(jobs[1].Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [expect.stringMatching(/^JobsDlq/), 'Arn'] }, maxReceiveCount: 5 });
    templateOf('workflows').hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionResponseTypes: ['ReportBatchItemFailures'] });
    templateOf('workflows').hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^JobsDlq'), 'QueueName'] } }],
      AlarmActions: [{ Ref: Match.stringLikeRegexp('^Alarms') }],
    });
    for (const [, queue] of queues) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('alarms on failed executions of every state machine', () => {
    const machines = resourcesOfType(templateOf('workflows'), 'AWS::StepFunctions::StateMachine').map(([id]) => id);
    expect(machines).toHaveLength(workflows.length);
    for (const id of machines) {
      templateOf('workflows').hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'ExecutionsFailed', Dimensions: [{ Name: 'StateMachineArn', Value: { Ref: id } }] });
    }
  });

  it('runs each schedule worker at its manifest rate, and wires deletions in the documents bucket to their worker', () => {
    const rules = resourcesOfType(templateOf('workflows'), 'AWS::Events::Rule').map(([, r]) => r.Properties);
    const functions = manifestFunctions(synthesized);
    const resolve = resolverFor(templateOf('workflows'), (key) => `{{${key}}}`);
    for (const worker of workers) {
      const fn = functions.find((f) => f.description === `worker: ${worker.name}`)!;
      const targeting = rules.filter((r) => text(r.Targets).includes(fn.logicalId));
      if (worker.trigger.kind === 'schedule') {
        const minutes = worker.trigger.everySeconds / 60;
        const unit = (n: number, name: string) => `rate(${String(n)} ${name}${n === 1 ? '' : 's'})`;
        const expected = minutes % 1440 === 0 ? unit(minutes / 1440, 'day') : minutes % 60 === 0 ? unit(minutes / 60, 'hour') : unit(minutes, 'minute');
        expect(targeting.map((r) => r.ScheduleExpression), worker.name).toEqual([expected]);
      } else if (worker.trigger.kind === 'objectRemoved') {
        expect(targeting).toHaveLength(1);
        const pattern = targeting[0]!.EventPattern as { detail: { bucket: { name: unknown[] } } };
        expect(pattern).toMatchObject({ source: ['aws.s3'], 'detail-type': ['Object Deleted'], detail: { object: { key: worker.trigger.prefixes.map((prefix) => ({ prefix })) } } });
        expect(pattern.detail.bucket.name.map(resolve)).toEqual(['{{bucketName}}']);
      } else {
        expect(targeting, worker.name).toEqual([]);
      }
    }
  });
});

describe('CDK app: the front doors', () => {
  it('the HTTP API stage throttles and writes access logs without request paths', () => {
    templateOf('web').hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default', AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: DEFAULT_SETTINGS.apiThrottle.rateLimit, ThrottlingBurstLimit: DEFAULT_SETTINGS.apiThrottle.burstLimit },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('routeKey') },
    });
    expect(text(resourcesOfType(templateOf('web'), 'AWS::ApiGatewayV2::Stage')[0]![1].Properties.AccessLogSettings)).not.toContain('$context.path');
  });

  it('has no CORS, and changes nothing out of band: the pages call the API on their own origin', () => {
    for (const [, api] of resourcesOfType(templateOf('web'), 'AWS::ApiGatewayV2::Api')) expect(api.Properties.CorsConfiguration).toBeUndefined();
    for (const name of ['data', 'web', 'workflows', 'api'] as const) templateOf(name).resourceCountIs('Custom::AWS', 0);
  });

  it('CloudFront proves itself to the API with the origin secret and forwards the viewer address, never Host', () => {
    const distribution = resourcesOfType(templateOf('web'), 'AWS::CloudFront::Distribution')[0]![1].Properties;
    const header = text(distribution);
    expect(header).toContain('x-origin-verify');
    expect(header).toContain('resolve:secretsmanager');
    const resolve = resolverFor(templateOf('web'), (key) => `{{${key}}}`);
    const origins = ((distribution.DistributionConfig as Json).Origins as { OriginCustomHeaders?: { HeaderValue: unknown }[] }[]);
    expect(origins.flatMap((o) => o.OriginCustomHeaders ?? []).map((h) => resolve(h.HeaderValue))).toEqual(['{{resolve:secretsmanager:{{originVerifySecretArn}}:SecretString:::}}']);
    const headers = text(resourcesOfType(templateOf('web'), 'AWS::CloudFront::OriginRequestPolicy')[0]![1].Properties);
    expect(headers).toContain('CloudFront-Viewer-Address');
    expect(headers).not.toMatch(/"Host"/);
  });

  it('the signing host serves the pages from S3 through OAC, and the signer paths from the API, with security headers', () => {
    const distribution = resourcesOfType(templateOf('web'), 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig as Json;
    const behaviors = distribution.CacheBehaviors as Json[];
    expect(behaviors.map((b) => b.PathPattern)).toEqual([...SIGNING_PATHS, ...AUTHORING_PATHS, '/embed/*', '/author/*', ...CONSOLE_PATHS]);
    const apiPaths = SIGNING_PATHS.length + AUTHORING_PATHS.length;
    for (const behavior of behaviors.slice(0, apiPaths)) expect(behavior).toMatchObject({ ViewerProtocolPolicy: 'https-only', AllowedMethods: expect.arrayContaining(['POST']), ResponseHeadersPolicyId: expect.anything() });
    // The editor's API calls carry its session in Authorization: only their behaviours forward it (in their cache key)
    const authoring = behaviors.filter((b) => AUTHORING_PATHS.includes(String(b.PathPattern)));
    expect(new Set(authoring.map((b) => JSON.stringify(b.CachePolicyId))).size).toBe(1);
    expect(behaviors.filter((b) => JSON.stringify(b.CachePolicyId) === JSON.stringify(authoring[0]?.CachePolicyId))).toHaveLength(AUTHORING_PATHS.length + 1); // and the console's /v1/*
    expect(text(resourcesOfType(templateOf('web'), 'AWS::CloudFront::CachePolicy').map(([, r]) => r.Properties))).toContain('Authorization');
    // The embedded page (decision 36) and the editor keep the function's frame-ancestors: a policy of their own without CSP or X-Frame-Options
    for (const framed of behaviors.slice(apiPaths, apiPaths + 2)) {
      expect(framed).toMatchObject({ ViewerProtocolPolicy: 'https-only', AllowedMethods: ['GET', 'HEAD'] });
      expect(framed.ResponseHeadersPolicyId).not.toEqual(behaviors[0]?.ResponseHeadersPolicyId);
    }
    const policies = resourcesOfType(templateOf('web'), 'AWS::CloudFront::ResponseHeadersPolicy').map(([, r]) => text(r.Properties));
    expect(policies.filter((p) => p.includes("frame-ancestors 'none'") && p.includes('wasm-unsafe-eval'))).toHaveLength(1);
    expect(policies.filter((p) => !p.includes('ContentSecurityPolicy') && !p.includes('FrameOptions'))).toHaveLength(1);
    expect(text(distribution.Origins)).toContain('execute-api');
    expect(text(distribution.Origins)).toContain('OriginAccessControlId');
    expect(distribution.CustomErrorResponses).toBeUndefined(); // the page-route fallback is a viewer-request function
    expect((distribution.DefaultCacheBehavior as Json).FunctionAssociations).toHaveLength(1);
    templateOf('web').hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Match.objectLike({ StrictTransportSecurity: Match.objectLike({ Override: true }), FrameOptions: { FrameOption: 'DENY', Override: true } }) },
    });
  });

  it('with a signing domain, serves it with its certificate and gives it as SIGNING_URL', () => {
    const app = newApp();
    const web = new WebStack(app, 'Web', {
      settings: { ...TEST_SETTINGS, signingDomain: 'sign.example.com', certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc' },
      logRetention: RetentionDays.ONE_MONTH,
    });
    const template = Template.fromStack(web);
    template.hasResourceProperties('AWS::CloudFront::Distribution', { DistributionConfig: Match.objectLike({ Aliases: ['sign.example.com'], ViewerCertificate: Match.objectLike({ MinimumProtocolVersion: 'TLSv1.2_2021' }) }) });
    template.hasResourceProperties('AWS::SSM::Parameter', { Name: '/Esign/signing-url', Value: 'https://sign.example.com' });
    expect(web.signingUrl).toBe('https://sign.example.com');
  });

  it('deploys the built pages when they exist at synth, with the deployment\'s own grants acknowledged', () => {
    const pages = mkdtempSync(join(tmpdir(), 'esign-pages-'));
    try {
      writeFileSync(join(pages, 'index.html'), '<!doctype html><title>sign</title>');
      const app = newApp();
      const web = new WebStack(app, 'Web', { settings: { ...TEST_SETTINGS, webDistPath: pages }, logRetention: RetentionDays.ONE_MONTH });
      Template.fromStack(web).hasResourceProperties('Custom::CDKBucketDeployment', { DistributionPaths: ['/*'], RetainOnDelete: false });
      expect(new AwsSolutionsChecks(app).validateScope(app).violations.map((v) => v.ruleName)).toEqual([]);
    } finally {
      rmSync(pages, { recursive: true, force: true });
    }
  });
});

describe('CDK app: settings', () => {
  const SENDER = { senderEmail: 'sign@example.com' };

  it('a deploy must name its sender, and is told how', () => {
    expect(() => settingsFromContext(newApp().node)).toThrow(/senderEmail is required[\s\S]*-c senderEmail=/);
    expect(() => settingsFromContext(newApp({ senderEmail: 'Acme <sign@example.com>' }).node)).toThrow(/plain email address/);
    expect(settingsFromContext(newApp(SENDER).node)).toEqual({ ...DEFAULT_SETTINGS, ...SENDER });
  });

  it('reads context given on the command line (strings) and in cdk.json (JSON values)', () => {
    const settings = settingsFromContext(newApp({
      ...SENDER, smsSenderId: 'Esign', retentionClasses: '[30, 365]', rateLimits: { plans: { gold: { limit: 5000, windowSeconds: 60 } } },
      apiThrottle: '{"rateLimit": 10}', logRetentionDays: '90', documentsBucketName: 'acme-esign-documents',
    }).node);
    expect(settings).toMatchObject({
      senderEmail: 'sign@example.com', smsSenderId: 'Esign', retentionClasses: [30, 365], logRetentionDays: 90, documentsBucketName: 'acme-esign-documents',
      rateLimits: '{"plans":{"gold":{"limit":5000,"windowSeconds":60}}}', apiThrottle: { rateLimit: 10, burstLimit: 200 },
    });
  });

  it('refuses a domain without its certificate, retention classes the code cannot tag, and bucket names S3 would refuse', () => {
    expect(() => settingsFromContext(newApp({ ...SENDER, signingDomain: 'sign.example.com' }).node)).toThrow(/certificateArn/);
    expect(() => settingsFromContext(newApp({ ...SENDER, retentionClasses: [31] }).node)).toThrow(/retentionClasses/);
    expect(() => settingsFromContext(newApp({ ...SENDER, documentsBucketName: 'Acme_Documents' }).node)).toThrow(/documentsBucketName "Acme_Documents" is not a valid S3 bucket name/);
    for (const bad of ['ab', 'a'.repeat(64), 'acme.documents', '-acme', 'acme-', 'xn--acme', 'acme-s3alias']) expect(bucketNameProblems(bad), bad).not.toEqual([]);
    for (const good of ['acme-esign-documents', 'abc', '0docs1']) expect(bucketNameProblems(good), good).toEqual([]);
  });
});

describe('CDK app: cdk-nag', () => {
  it('AwsSolutions reports nothing that is not acknowledged with a reason', () => {
    const report = new AwsSolutionsChecks(synthesized.app).validateScope(synthesized.app);
    expect(report.violations.map((v) => `${v.ruleName} (${v.severity}): ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });

  it('every acknowledgement carries a reason', () => {
    const acknowledgements = synthesized.app.node.findAll().flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:acknowledged-rules').map((m) => m.data as Record<string, unknown>));
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const entry of acknowledgements) for (const [id, reason] of Object.entries(entry)) expect(text(reason).length, id).toBeGreaterThan(30);
  });
});
