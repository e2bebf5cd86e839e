/**
 * The CDK app as templates, and a reader for them: each manifest function with its environment and the statements
 * of its role, and a resolver that turns the template's expressions into strings. Cross-stack values are SSM
 * parameters (infra/constructs/handoff.ts), so an expression resolves by naming the resource it hands off: a
 * CloudFormation parameter reading `/Esign/table-arn`, or within the producing stack the expression its handoff
 * parameter holds. `values` says what each resource is (placeholders for a bundle's cold start, the local stack's
 * names for the IAM trace).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HANDOFF_KEYS, handoffName, type HandoffKey } from '#infra/constructs/handoff.ts';
import { REPO_ROOT } from '#infra/constructs/bundling.ts';
import { createService, type Service } from '#infra/stacks/service.ts';
import { DEFAULT_SETTINGS, type ServiceSettings } from '#infra/stacks/settings.ts';
import { fallbackRoute, routes, workers, workflows } from '#infra/routes.ts';

export type Json = Record<string, unknown>;
export interface Resource { Type: string; Properties: Json; Metadata?: Json }
export interface Statement { Effect: 'Allow' | 'Deny'; Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> }

/** The settings the tests synthesize with: the defaults, an example sender, and no built pages. */
export const TEST_SETTINGS: ServiceSettings = { ...DEFAULT_SETTINGS, senderEmail: 'no-reply@example.com', webDistPath: 'test/fixtures/no-such-folder' };

const cdkContext = (JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Json }).context;

/** An app with cdk.json's feature flags, without bundling (the stacks still reference a code asset per function). */
export const newApp = (context: Json = {}) => new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });

export interface Synthesized {
  app: App;
  service: Service;
  templates: Record<keyof Service, Template>;
  /** The api stack's nested stacks (its route functions, one per route tag), by their id. */
  nested: Record<string, Template>;
}

export function synthesize(settings: ServiceSettings = TEST_SETTINGS): Synthesized {
  const app = newApp();
  const service = createService(app, settings);
  const templates = {} as Record<keyof Service, Template>;
  for (const name of ['data', 'web', 'workflows', 'api'] as const) templates[name] = Template.fromStack(service[name]);
  const nested = Object.fromEntries(Object.values(service.api.groups).map((group) => [group.node.id, Template.fromStack(group)]));
  return { app, service, templates, nested };
}

/** Every template of the app, the nested stacks' included, by name (`api/RoutesEnvelopes` for a nested one). */
export function allTemplates(synthesized: Synthesized): [string, Template][] {
  return [...Object.entries(synthesized.templates), ...Object.entries(synthesized.nested).map(([id, t]) => [`api/${id}`, t] as [string, Template])];
}

/** The templates that hold a stack's manifest functions: the api stack's are in its nested stacks. */
export function functionTemplates(synthesized: Synthesized, stack: 'api' | 'workflows'): Template[] {
  return stack === 'api' ? Object.values(synthesized.nested) : [synthesized.templates.workflows];
}

export const resourcesOfType = (template: Template, type: string) =>
  Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);

/** A manifest function as synthesized: where it is, what it is given and what its role may do. */
export interface SynthesizedFunction {
  handler: string;
  description: string;
  template: Template;
  logicalId: string;
  props: Json;
  env: Record<string, unknown>;
  /** The role's grants, X-Ray's aside (those are `tracing`: active tracing's two actions on `*`, which the code never calls). */
  statements: Statement[];
  tracing: Statement[];
}

export const isTracing = (statement: Statement) => [statement.Action].flat().every((action) => action.startsWith('xray:'));

/** The statements of the role a function runs as (its DefaultPolicy; the role carries no inline or managed policy). */
export function statementsOf(template: Template, props: Json): Statement[] {
  const roleId = ((props.Role as Json)['Fn::GetAtt'] as string[])[0];
  const policies = resourcesOfType(template, 'AWS::IAM::Policy').filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId));
  return policies.flatMap(([, p]) => ((p.Properties.PolicyDocument as Json).Statement as Statement[]));
}

/** Every manifest function with the description its stack gives it (`GET /v1/...`, `worker: jobs`, `seal-envelope: Seal`). */
export function manifestFunctions(synthesized: Synthesized): SynthesizedFunction[] {
  const described = [
    ...routes.map((r) => ({ handler: r.handler, description: `${r.method} ${r.path}`, stack: 'api' as const })),
    { handler: fallbackRoute.handler, description: 'no route ($default)', stack: 'api' as const },
    ...workers.map((w) => ({ handler: w.handler, description: `worker: ${w.name}`, stack: 'workflows' as const })),
    ...workflows.flatMap((wf) => Object.entries(wf.tasks).map(([state, task]) => ({ handler: task.handler, description: `${wf.name}: ${state}`, stack: 'workflows' as const }))),
  ];
  return described.map(({ handler, description, stack }) => {
    const found = functionTemplates(synthesized, stack).flatMap((template) => resourcesOfType(template, 'AWS::Lambda::Function')
      .filter(([, r]) => r.Properties.Description === description).map(([id, r]) => ({ template, id, r })));
    if (found.length !== 1) throw new Error(`${description}: ${String(found.length)} functions in the ${stack} stack`);
    const { template, id: logicalId, r: resource } = found[0]!;
    const env = ((resource.Properties.Environment as Json).Variables as Record<string, unknown>);
    const statements = statementsOf(template, resource.Properties);
    return { handler, description, template, logicalId, props: resource.Properties, env, statements: statements.filter((st) => !isTracing(st)), tracing: statements.filter(isTracing) };
  });
}

export interface Pseudo { partition: string; region: string; account: string; urlSuffix: string }

export const TEST_PSEUDO: Pseudo = { partition: 'aws', region: 'us-east-1', account: '000000000000', urlSuffix: 'amazonaws.com' };

/** Marks what the resolver cannot name (a log group's ARN, say): it matches no real resource. */
export const unresolved = (what: string) => `«${what}»`;

/**
 * Resolves expressions of `template` to strings. A handed-off resource resolves to `values(key)`; pseudo parameters
 * to `pseudo`; anything else to an `unresolved` marker.
 */
export function resolverFor(template: Template, values: (key: HandoffKey) => string, pseudo: Pseudo = TEST_PSEUDO): (expression: unknown) => string {
  const json = template.toJSON() as { Parameters?: Record<string, { Type: string; Default?: string }>; Resources: Record<string, Resource> };
  const keys = HANDOFF_KEYS;
  const keyOfName = (name: unknown) => keys.find((key) => typeof name === 'string' && name.endsWith(handoffName('', key).slice(1)));
  const parameters = new Map(Object.entries(json.Parameters ?? {}).flatMap(([id, p]) => {
    const key = p.Type.startsWith('AWS::SSM::Parameter::Value') ? keyOfName(p.Default) : undefined;
    return key ? [[id, key] as const] : [];
  }));
  const published = Object.values(json.Resources).flatMap((r) => {
    const key = r.Type === 'AWS::SSM::Parameter' ? keyOfName(r.Properties.Name) : undefined;
    return key ? [{ value: JSON.stringify(r.Properties.Value), key }] : [];
  });
  const PSEUDO: Record<string, string> = {
    'AWS::Partition': pseudo.partition, 'AWS::Region': pseudo.region, 'AWS::AccountId': pseudo.account, 'AWS::URLSuffix': pseudo.urlSuffix,
  };
  const resolve = (expression: unknown): string => {
    if (typeof expression === 'string') return expression;
    const own = published.find((p) => p.value === JSON.stringify(expression));
    if (own) return values(own.key);
    const e = expression as Json;
    if (typeof e.Ref === 'string') {
      const key = parameters.get(e.Ref);
      if (key) return values(key);
      return PSEUDO[e.Ref] ?? unresolved(e.Ref);
    }
    if (Array.isArray(e['Fn::Join'])) {
      const [separator, parts] = e['Fn::Join'] as [string, unknown[]];
      return parts.map(resolve).join(separator);
    }
    if (Array.isArray(e['Fn::GetAtt'])) return unresolved((e['Fn::GetAtt'] as string[]).join('.'));
    return unresolved(JSON.stringify(expression));
  };
  return resolve;
}
