/**
 * The CDK app's functions as a reviewer would read them: the manifest becomes exactly its functions and routes, and
 * each function holds only what its access row binds. Expressions are read through the template resolver, which
 * names a handed-off resource `{{key}}` (test/support/templates.ts). The app is built once, without bundling
 * (cdk-bundle.test.ts bundles the functions). Stacks, data and front doors: cdk-stacks.test.ts.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { SECRET_NAMES, secretArnVariable } from '#shared/adapters/aws/secret-names.ts';
import { createTableInput } from '#shared/adapters/aws/table-schema.ts';
import { servedBySigningHost } from '#shared/http/signing-host-policy.ts';
import { TRAFFIC_KEY_PREFIXES } from '#infra/constructs/grants.ts';
import { accessOf } from '#infra/stacks/access.ts';
import { functionEnvironment, IN_SECRETS_MANAGER, manifestHandlers, RESOURCE_KEYS, UNBOUND, type ServiceResources } from '#infra/stacks/environment.ts';
import { functionSettings } from '#infra/stacks/settings.ts';
import { functionModules, routes, workers, workflows } from '#infra/routes.ts';
import { functionTemplates, manifestFunctions, resolverFor, resourcesOfType, synthesize, TEST_SETTINGS, type Json, type Resource, type Statement, type Synthesized, type SynthesizedFunction } from '#test/support/templates.ts';

let synthesized: Synthesized;
let functions: SynthesizedFunction[];

beforeAll(() => {
  synthesized = synthesize();
  functions = manifestFunctions(synthesized);
});

const fn = (description: string) => {
  const found = functions.find((f) => f.description === description);
  if (!found) throw new Error(`no function ${description}`);
  return found;
};
/** An expression of the function's template as a string, handed-off resources as `{{key}}`. */
const resolve = (f: SynthesizedFunction, expression: unknown) => resolverFor(f.template, (key) => `{{${key}}}`)(expression);
const resourcesOf = (f: SynthesizedFunction, statement: Statement) => [statement.Resource].flat().map((r) => resolve(f, r));
const actionsOf = (statements: Statement[]) => statements.flatMap((s) => [s.Action].flat()).sort();
const text = (value: unknown) => JSON.stringify(value);
const allows = (f: SynthesizedFunction, action: string) => f.statements.filter((s) => s.Effect === 'Allow' && [s.Action].flat().includes(action));
const resolvedEnv = (f: SynthesizedFunction) => Object.fromEntries(Object.entries(f.env).map(([name, value]) => [name, resolve(f, value)]));

describe('CDK app: the manifest, exactly', () => {
  it('has one function and one route per route row, the $default route\'s function, and no other function or route', () => {
    const { templates } = synthesized;
    const fns = functionTemplates(synthesized, 'api').flatMap((template) => resourcesOfType(template, 'AWS::Lambda::Function'));
    expect(fns).toHaveLength(routes.length + 1);
    expect(resourcesOfType(templates.api, 'AWS::Lambda::Function')).toEqual([]);
    const routeKeys = resourcesOfType(templates.api, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    expect(routeKeys.sort()).toEqual([...routes.map((r) => `${r.method} ${r.path}`), '$default'].sort());
    expect(resourcesOfType(templates.web, 'AWS::ApiGatewayV2::Route')).toEqual([]);
    for (const f of functions) {
      expect(f.props).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
      expect(f.env.NODE_OPTIONS).toBe('--enable-source-maps');
    }
  });

  it('has one function per worker and per workflow task, and no other in the workflows stack', () => {
    const expected = [...workers.map((w) => `worker: ${w.name}`), ...workflows.flatMap((wf) => Object.keys(wf.tasks).map((state) => `${wf.name}: ${state}`))];
    const fns = resourcesOfType(synthesized.templates.workflows, 'AWS::Lambda::Function').map(([, f]) => f.Properties.Description);
    expect(fns.sort()).toEqual(expected.sort());
  });

  it('gives every function its own log group with the configured retention', () => {
    for (const f of functions) {
      const logGroup = ((f.props.LoggingConfig as Json).LogGroup as Json).Ref as string;
      expect((f.template.toJSON().Resources as Record<string, Resource>)[logGroup]?.Properties.RetentionInDays).toBe(30);
    }
  });

  const SIGN_IN = {
    issuer: '{{signInIssuer}}', clientId: '{{consoleClientId}}', jwksUrl: '{{signInIssuer}}/.well-known/jwks.json', audience: null, logoutUrl: '{{signInLogoutUrl}}', userPoolId: '{{userPoolId}}',
  };
  it('gives each function exactly the environment the local runtime gives it (infra/stacks/environment.ts), and nothing else', () => {
    const named = Object.fromEntries(RESOURCE_KEYS.map((key) => [key, `{{${key}}}`])) as ServiceResources;
    for (const f of functions) {
      expect(resolvedEnv(f), f.description).toEqual({ NODE_OPTIONS: '--enable-source-maps', ...functionEnvironment(f.handler, named, functionSettings(TEST_SETTINGS, '{{sealKeyId}}', SIGN_IN)) });
    }
  });

  it('deploys every function module, each declaring its access', () => {
    expect(new Set(manifestHandlers())).toEqual(new Set(functionModules.map((m) => m.handler)));
    for (const handler of manifestHandlers()) expect(accessOf(handler), handler).toBeTypeOf('object');
  });
});

describe('CDK app: least privilege', () => {
  const isTraffic = (s: Statement) => text(s).includes('dynamodb:LeadingKeys');
  const isSecretRead = (s: Statement) => actionsOf([s]).includes('secretsmanager:GetSecretValue') || text(s).includes('kms:ViaService');
  const expectTraffic = (f: SynthesizedFunction) => {
    const traffic = f.statements.filter(isTraffic);
    expect(traffic).toHaveLength(1);
    expect(traffic[0]).toMatchObject({
      Action: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': TRAFFIC_KEY_PREFIXES.map((p) => `${p}*`) } },
    });
    expect(resourcesOf(f, traffic[0]!)).toEqual(['{{tableArn}}']);
  };

  it('the OpenAPI function writes its logs and its own rate counters, and holds no document, queue or secret', () => {
    const f = fn('GET /v1/openapi.json');
    expect(f.statements).toHaveLength(2);
    expect(actionsOf(f.statements.filter((s) => !isTraffic(s)))).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    expect(text(f.statements[0]!.Resource)).toContain('OpenapiLogs');
    expectTraffic(f);
    for (const name of ['BUCKET_NAME', 'JOBS_QUEUE_URL']) expect(f.env[name]).toBe(UNBOUND);
    for (const name of ['JWT_SECRET', 'LINK_SECRET', 'DATA_KEY']) expect(String(f.env[name])).toMatch(new RegExp(`^${UNBOUND}:${name}:`));
  });

  it('the token endpoint reads the table, writes only its rate counters, and holds the JWT secret, nothing else', () => {
    const f = fn('POST /oauth/token');
    const statements = f.statements.filter((s) => !actionsOf([s]).every((a) => a.startsWith('logs:')));
    expectTraffic(f);
    const reads = statements.filter((s) => !isTraffic(s) && !isSecretRead(s));
    expect(actionsOf(reads)).toEqual(['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Query']);
    expect(resourcesOf(f, reads[0]!)).toEqual(['{{tableArn}}']);
    expect(resourcesOf(f, reads[1]!)).toEqual(createTableInput('t').GlobalSecondaryIndexes!.map((i) => `{{tableArn}}/index/${i.IndexName!}`));
    expect(statements.filter(isSecretRead).map((s) => [actionsOf([s]), resourcesOf(f, s)])).toEqual([
      [['secretsmanager:GetSecretValue'], ['{{jwtSecretArn}}']],
      [['kms:Decrypt'], ['{{encryptionKeyArn}}']],
    ]);
    const env = resolvedEnv(f);
    expect(env).toMatchObject({ JWT_SECRET: IN_SECRETS_MANAGER, JWT_SECRET_ARN: '{{jwtSecretArn}}', TABLE_NAME: '{{tableName}}', BUCKET_NAME: UNBOUND });
    expect(env.LINK_SECRET).toMatch(new RegExp(`^${UNBOUND}:`));
    expect(env.DATA_KEY).toMatch(new RegExp(`^${UNBOUND}:`));
  });

  it('routes that write the table need no separate traffic grant; every other route has exactly one', () => {
    for (const route of routes) {
      const f = fn(`${route.method} ${route.path}`);
      expect(f.statements.filter(isTraffic), route.path).toHaveLength(accessOf(route.handler).table === 'write' ? 0 : 1);
    }
  });

  it('the seal task signs with the seal key only, reads original/, signatures/ and attachments/, writes sealed/ (and its stage record in the table), deletes nothing', () => {
    const f = fn('seal-envelope: Seal');
    expect(allows(f, 'kms:Sign').flatMap((s) => resourcesOf(f, s))).toEqual(['{{sealKeyArn}}']);
    expect(allows(f, 'kms:GetPublicKey').flatMap((s) => resourcesOf(f, s))).toEqual(['{{sealKeyArn}}']);
    const objects = (action: string) => allows(f, action).flatMap((s) => resourcesOf(f, s));
    expect(objects('s3:GetObject').sort()).toEqual(['{{bucketArn}}/attachments/*', '{{bucketArn}}/original/*', '{{bucketArn}}/signatures/*']);
    expect(objects('s3:PutObject')).toEqual(['{{bucketArn}}/sealed/*']);
    expect(actionsOf(f.statements)).not.toContain('s3:DeleteObject');
    expect(resolvedEnv(f)).toMatchObject({ SEAL_KEY_ID: '{{sealKeyArn}}', SEAL_CERTIFICATE_CHAIN_PEM: '{{sealCertificatePem}}' });
    for (const name of ['JWT_SECRET', 'LINK_SECRET', 'DATA_KEY']) expect(String(f.env[name])).toMatch(new RegExp(`^${UNBOUND}:`));
  });

  it('no other function may sign with the seal key', () => {
    expect(functions.filter((f) => allows(f, 'kms:Sign').length > 0).map((f) => f.description)).toEqual(['seal-envelope: Seal']);
  });

  it('a signer endpoint writes the table, stores drawn signatures, queues jobs and starts sealing', () => {
    const f = fn('POST /v1/signing/{token}/sign');
    expect(actionsOf(f.statements)).toEqual(expect.arrayContaining(['dynamodb:PutItem', 's3:PutObject', 'sqs:SendMessage', 'states:StartExecution', 'kms:GenerateDataKey']));
    expect(actionsOf(f.statements)).not.toContain('s3:GetObject');
    expect(actionsOf(f.statements)).not.toContain('ses:SendEmail');
    expect(allows(f, 'states:StartExecution').flatMap((s) => resourcesOf(f, s))).toEqual(['{{sealStateMachineArn}}']);
    expect(resolvedEnv(f)).toMatchObject({ LINK_SECRET_ARN: '{{linkSecretArn}}', SEAL_STATE_MACHINE_ARN: '{{sealStateMachineArn}}', JOBS_QUEUE_URL: '{{jobsQueueUrl}}' });
    expect(String(f.env.JWT_SECRET)).toMatch(new RegExp(`^${UNBOUND}:`));
  });

  it('the workers in the workflows stack use its own queue and state machines', () => {
    const jobs = fn('worker: jobs');
    expect(resolvedEnv(jobs)).toMatchObject({ JOBS_QUEUE_URL: '{{jobsQueueUrl}}', WEBHOOK_RETRY_STATE_MACHINE_ARN: '{{webhookRetryStateMachineArn}}' });
    expect(allows(jobs, 'sqs:SendMessage').flatMap((s) => resourcesOf(jobs, s))).toEqual(['{{jobsQueueArn}}']);
    expect(text(jobs.env.JOBS_QUEUE_URL)).toContain('JobsQueue'); // its own queue, not a parameter
  });

  it('mail goes out from the sender only, to any recipient (SES checks recipient identities in its sandbox); SMS to phone numbers only', () => {
    const f = fn('POST /v1/signing/{token}/otp/request');
    const ses = allows(f, 'ses:SendEmail');
    expect(ses).toHaveLength(1);
    expect(resourcesOf(f, ses[0]!)).toEqual(['arn:aws:ses:us-east-1:000000000000:identity/*']);
    expect(ses[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': TEST_SETTINGS.senderEmail } });
    const sns = f.statements.filter((s) => actionsOf([s]).includes('sns:Publish'));
    expect(sns.map((s) => s.Effect).sort()).toEqual(['Allow', 'Deny']);
    expect(f.env.MAIL_FROM).toBe(TEST_SETTINGS.senderEmail);
  });

  it('every route the signing host serves reads the origin secret, so it records the viewer\'s address; no other function does', () => {
    for (const f of functions) {
      const route = routes.find((r) => `${r.method} ${r.path}` === f.description);
      const behind = route !== undefined && servedBySigningHost(route.path);
      expect(resolve(f, f.env.ORIGIN_VERIFY_SECRET_ARN ?? ''), f.description).toBe(behind ? '{{originVerifySecretArn}}' : '');
    }
    expect(resolvedEnv(fn('GET /v1/download/{token}/document')).ORIGIN_VERIFY_SECRET).toBe(IN_SECRETS_MANAGER);
  });

  it('webhook delivery functions hold DATA_KEY and run outside any VPC', () => {
    for (const description of ['worker: jobs', 'webhook-retry: Attempt', 'POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend']) {
      expect(resolvedEnv(fn(description)).DATA_KEY_ARN, description).toBe('{{dataKeySecretArn}}');
      expect(fn(description).props.VpcConfig, description).toBeUndefined();
    }
  });

  it('grants no action wildcard, and `*` resources only for SMS publishing, the SES quota, workflow log delivery and X-Ray', () => {
    for (const template of [...functionTemplates(synthesized, 'api'), synthesized.templates.workflows]) {
      for (const [id, policy] of resourcesOfType(template, 'AWS::IAM::Policy')) {
        for (const statement of (policy.Properties.PolicyDocument as Json).Statement as Statement[]) {
          if (statement.Effect !== 'Allow') continue;
          for (const action of [statement.Action].flat()) expect(action, id).not.toContain('*');
          if ([statement.Resource].flat().includes('*')) {
            expect(actionsOf([statement]).every((a) => a === 'sns:Publish' || a === 'ses:GetAccount' || a.startsWith('logs:') || a === 'xray:PutTraceSegments' || a === 'xray:PutTelemetryRecords'), `${id}: ${text(statement)}`).toBe(true);
          }
        }
      }
    }
  });

  it('functions read their secrets at run time: no secret value or reference in a template, and only the secrets their rows bind', () => {
    for (const template of [synthesized.templates.api, ...functionTemplates(synthesized, 'api'), synthesized.templates.workflows]) {
      expect(text(template.toJSON())).not.toContain('resolve:secretsmanager');
    }
    for (const f of functions) {
      const bound = SECRET_NAMES.filter((secret) => f.env[secretArnVariable(secret)] !== undefined);
      expect([...bound].sort(), f.description).toEqual([...(accessOf(f.handler).secrets ?? [])].sort());
      const readable = allows(f, 'secretsmanager:GetSecretValue').flatMap((s) => resourcesOf(f, s));
      expect(readable.sort(), f.description).toEqual(bound.map((secret) => resolve(f, f.env[secretArnVariable(secret)])).sort());
      for (const secret of bound) expect(f.env[secret]).toBe(IN_SECRETS_MANAGER);
    }
    synthesized.templates.data.resourcePropertiesCountIs('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ PasswordLength: 64 }) }, 4);
  });
});
