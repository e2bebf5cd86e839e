/**
 * What the synthesized CDK app deploys, read for the architecture document (infra/architecture-doc.ts): every
 * function with what starts it, the queues, the EventBridge rules, the state machines, the alarms that notify, the
 * table and the buckets' lifecycle rules. The app is synthesized once with the default settings, without bundling
 * (each function still references a code asset), so reading it costs a few seconds and no esbuild run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { REPO_ROOT } from './constructs/bundling.ts';
import { createService } from './stacks/service.ts';
import { DEFAULT_SETTINGS, type ServiceSettings } from './stacks/settings.ts';

type Json = Record<string, unknown>;
interface Resource { Type: string; Properties: Json }

/** One template of the app: `data`, `web`, `workflows`, `api`, or a route group nested in the api stack (`api/RoutesEnvelopes`). */
export interface StackTemplate { name: string; resources: Record<string, Resource> }

/** The default settings with an example sender and no built pages (a pages deployment would hash web/dist). */
const DOC_SETTINGS: ServiceSettings = { ...DEFAULT_SETTINGS, senderEmail: 'no-reply@example.com', webDistPath: '.no-pages-for-the-architecture-document' };

export function synthesizeTemplates(settings: ServiceSettings = DOC_SETTINGS): StackTemplate[] {
  const context = (JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Json }).context;
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  const service = createService(app, settings);
  const read = (name: string, stack: Parameters<typeof Template.fromStack>[0]) =>
    ({ name, resources: (Template.fromStack(stack).toJSON() as { Resources: Record<string, Resource> }).Resources });
  return [
    ...(['data', 'web', 'workflows', 'api'] as const).map((name) => read(name, service[name])),
    ...Object.values(service.api.groups).map((group) => read(`api/${group.node.id}`, group)),
  ];
}

/** A logical id without CDK's hash suffix: `JobsQueue86ED6666` -> `JobsQueue`. */
export const constructName = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');

/** The logical id an expression references (`Ref`, `Fn::GetAtt`), if any. */
function referenced(expression: unknown): string | undefined {
  const e = expression as Json | undefined;
  if (typeof e?.Ref === 'string') return e.Ref;
  if (Array.isArray(e?.['Fn::GetAtt'])) return (e['Fn::GetAtt'] as string[])[0];
  return undefined;
}

/** A template value as text: scalars as they are, anything else as JSON. */
const text = (value: unknown): string =>
  (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : value === undefined ? '' : JSON.stringify(value));

const ofType = (stack: StackTemplate, type: string) => Object.entries(stack.resources).filter(([, r]) => r.Type === type);

export interface FunctionFact { stack: string; logicalId: string; description: string; memoryMb: number | undefined; timeoutSeconds: number | undefined; reserved: number | undefined; triggers: string[] }

const seconds = (s: number) => (s % 86_400 === 0 ? `${text(s / 86_400)} d` : s % 3600 === 0 ? `${text(s / 3600)} h` : s % 60 === 0 ? `${text(s / 60)} min` : `${text(s)} s`);

/** What starts each function, as the template wires it. */
function triggersOf(stack: StackTemplate, logicalId: string): string[] {
  const found: string[] = [];
  for (const [, esm] of ofType(stack, 'AWS::Lambda::EventSourceMapping')) {
    if (referenced(esm.Properties.FunctionName) !== logicalId) continue;
    const p = esm.Properties;
    const concurrency = (p.ScalingConfig as Json | undefined)?.MaximumConcurrency;
    found.push(`SQS \`${constructName(referenced(p.EventSourceArn) ?? '?')}\` (batch ${text(p.BatchSize)}${concurrency ? `, at most ${text(concurrency)} at once` : ''})`);
  }
  for (const [ruleId, rule] of ofType(stack, 'AWS::Events::Rule')) {
    const targets = (rule.Properties.Targets as Json[]).filter((t) => referenced(t.Arn) === logicalId);
    if (targets.length === 0) continue;
    const schedule = rule.Properties.ScheduleExpression as string | undefined;
    found.push(schedule ? `schedule \`${schedule}\`` : `EventBridge rule \`${constructName(ruleId)}\``);
  }
  for (const [machineId, machine] of ofType(stack, 'AWS::StepFunctions::StateMachine')) {
    const substitutions = (machine.Properties.DefinitionSubstitutions ?? {}) as Json;
    const definition = JSON.parse(machine.Properties.DefinitionString as string) as { States: Record<string, unknown> };
    for (const [variable, value] of Object.entries(substitutions)) {
      if (referenced(value) !== logicalId) continue;
      const states = Object.entries(definition.States).filter(([, s]) => JSON.stringify(s).includes(`\${${variable}}`)).map(([name]) => name);
      found.push(`state machine \`${constructName(machineId)}\`, Task ${states.map((s) => `\`${s}\``).join(', ')}`);
    }
  }
  for (const [customId, custom] of Object.entries(stack.resources)) {
    if (custom.Type.startsWith('Custom::') && referenced(custom.Properties.ServiceToken) === logicalId) found.push(`deploy: \`${custom.Type}\` \`${constructName(customId)}\``);
  }
  for (const [providerId, fn] of ofType(stack, 'AWS::Lambda::Function')) {
    const variables = ((fn.Properties.Environment as Json | undefined)?.Variables ?? {}) as Json;
    if (Object.entries(variables).some(([name, value]) => name.startsWith('USER_ON_EVENT') && referenced(value) === logicalId)) found.push(`deploy: called by \`${constructName(providerId)}\``);
  }
  return found;
}

export function functionFacts(stacks: readonly StackTemplate[]): FunctionFact[] {
  return stacks.flatMap((stack) => ofType(stack, 'AWS::Lambda::Function').map(([logicalId, fn]) => ({
    stack: stack.name,
    logicalId,
    description: text(fn.Properties.Description ?? constructName(logicalId)),
    memoryMb: fn.Properties.MemorySize as number | undefined,
    timeoutSeconds: fn.Properties.Timeout as number | undefined,
    reserved: fn.Properties.ReservedConcurrentExecutions as number | undefined,
    triggers: triggersOf(stack, logicalId),
  })));
}

/** The HTTP API's route keys (`POST /v1/envelopes`, `$default`). */
export const routeKeys = (stacks: readonly StackTemplate[]) =>
  new Set(stacks.flatMap((stack) => ofType(stack, 'AWS::ApiGatewayV2::Route').map(([, r]) => text(r.Properties.RouteKey))));

export interface QueueFact { name: string; visibility: string; retention: string; deadLetter: string; feeds: string[] }

export function queueFacts(stacks: readonly StackTemplate[]): QueueFact[] {
  return stacks.flatMap((stack) => ofType(stack, 'AWS::SQS::Queue').map(([id, queue]) => {
    const redrive = queue.Properties.RedrivePolicy as Json | undefined;
    const feeds = [
      ...ofType(stack, 'AWS::SQS::Queue').filter(([, q]) => referenced((q.Properties.RedrivePolicy as Json | undefined)?.deadLetterTargetArn) === id)
        .map(([source, q]) => `dead letters of \`${constructName(source)}\` after ${text((q.Properties.RedrivePolicy as Json).maxReceiveCount)} receives`),
      ...ofType(stack, 'AWS::Events::Rule').filter(([, r]) => (r.Properties.Targets as Json[]).some((t) => referenced((t.DeadLetterConfig as Json | undefined)?.Arn) === id))
        .map(([rule]) => `events rule \`${constructName(rule)}\` could not deliver`),
    ];
    const failures = ofType(stack, 'AWS::Lambda::EventInvokeConfig')
      .filter(([, c]) => referenced((((c.Properties.DestinationConfig as Json | undefined)?.OnFailure as Json | undefined)?.Destination)) === id);
    const [first] = failures;
    if (first) feeds.push(`failed asynchronous invocations of ${text(failures.length)} functions (after ${text(first[1].Properties.MaximumRetryAttempts)} retries)`);
    return {
      name: constructName(id),
      visibility: queue.Properties.VisibilityTimeout === undefined ? 'default (30 s)' : seconds(queue.Properties.VisibilityTimeout as number),
      retention: queue.Properties.MessageRetentionPeriod === undefined ? 'default (4 d)' : seconds(queue.Properties.MessageRetentionPeriod as number),
      deadLetter: redrive ? `\`${constructName(referenced(redrive.deadLetterTargetArn) ?? '?')}\` after ${text(redrive.maxReceiveCount)} receives` : '–',
      feeds,
    };
  }));
}

export interface RuleFact { name: string; when: string; target: string; retries: string; deadLetter: string }

export function ruleFacts(stacks: readonly StackTemplate[]): RuleFact[] {
  const describe = new Map(stacks.flatMap((stack) => ofType(stack, 'AWS::Lambda::Function').map(([id, fn]) => [id, text(fn.Properties.Description ?? id)] as const)));
  return stacks.flatMap((stack) => ofType(stack, 'AWS::Events::Rule').map(([id, rule]) => {
    const target = (rule.Properties.Targets as Json[])[0] ?? {};
    const pattern = rule.Properties.EventPattern as Json | undefined;
    const prefixes = ((((pattern?.detail as Json | undefined)?.object as Json | undefined)?.key ?? []) as Json[]).map((k) => `\`${text(k.prefix)}\``);
    const when = (rule.Properties.ScheduleExpression as string | undefined) ?? `${text((pattern?.['detail-type'] as string[] | undefined)?.join(', '))}${prefixes.length ? ` under ${prefixes.join(', ')}` : ''}`;
    const retries = (target.RetryPolicy as Json | undefined)?.MaximumRetryAttempts;
    const deadLetter = referenced((target.DeadLetterConfig as Json | undefined)?.Arn);
    return {
      name: constructName(id), when, target: `\`${describe.get(referenced(target.Arn) ?? '') ?? '?'}\``,
      retries: retries === undefined ? 'default' : text(retries), deadLetter: deadLetter ? `\`${constructName(deadLetter)}\`` : '–',
    };
  }));
}

export interface MachineFact { name: string; states: string[] }

export function machineFacts(stacks: readonly StackTemplate[]): MachineFact[] {
  return stacks.flatMap((stack) => ofType(stack, 'AWS::StepFunctions::StateMachine').map(([id, machine]) => {
    const definition = JSON.parse(machine.Properties.DefinitionString as string) as { StartAt: string; States: Record<string, Json> };
    const states = Object.entries(definition.States).map(([name, state]) => {
      const next = [state.Next, ...((state.Choices as Json[] | undefined) ?? []).map((c) => c.Next), state.Default, ...((state.Catch as Json[] | undefined) ?? []).map((c) => c.Next)]
        .filter((n): n is string => typeof n === 'string');
      return `${name === definition.StartAt ? '**' : ''}${name}${name === definition.StartAt ? '**' : ''} (${text(state.Type)}${next.length ? ` → ${[...new Set(next)].join(' / ')}` : ''})`;
    });
    return { name: constructName(id), states };
  }));
}

export interface AlarmFact { stack: string; name: string; watches: string; description: string }

/** The alarms that notify (a composite over a group, or a single metric): the group's member alarms are left out. */
export function alarmFacts(stacks: readonly StackTemplate[]): AlarmFact[] {
  return stacks.flatMap((stack) => Object.entries(stack.resources)
    .filter(([, r]) => (r.Type === 'AWS::CloudWatch::Alarm' || r.Type === 'AWS::CloudWatch::CompositeAlarm') && r.Properties.AlarmActions !== undefined)
    .map(([id, alarm]) => {
      const p = alarm.Properties;
      const watches = alarm.Type === 'AWS::CloudWatch::CompositeAlarm'
        ? 'any of its group\'s alarms'
        : `${p.MetricName ? `${text(p.Namespace)} ${text(p.MetricName)}` : 'metric math'} ${p.ComparisonOperator === 'GreaterThanOrEqualToThreshold' ? '≥' : text(p.ComparisonOperator)} ${text(p.Threshold)}`;
      return { stack: stack.name, name: constructName(id), watches, description: text(p.AlarmDescription ?? '') };
    }));
}

export interface TableFact { name: string; keys: string; billing: string; ttl: string; indexes: { name: string; keys: string; projection: string }[] }

const keysOf = (schema: Json[]) => schema.map((k) => `\`${text(k.AttributeName)}\``).join(' / ');

export function tableFacts(stacks: readonly StackTemplate[]): TableFact[] {
  return stacks.flatMap((stack) => ofType(stack, 'AWS::DynamoDB::Table').map(([id, table]) => {
    const p = table.Properties;
    const ttl = p.TimeToLiveSpecification as Json | undefined;
    return {
      name: constructName(id), keys: keysOf(p.KeySchema as Json[]), billing: text(p.BillingMode ?? 'PROVISIONED'),
      ttl: ttl?.Enabled ? `\`${text(ttl.AttributeName)}\`` : 'none',
      indexes: ((p.GlobalSecondaryIndexes ?? []) as Json[]).map((index) => ({
        name: text(index.IndexName), keys: keysOf(index.KeySchema as Json[]), projection: text((index.Projection as Json).ProjectionType),
      })),
    };
  }));
}

export interface LifecycleFact { bucket: string; rule: string; applies: string; action: string }

export function lifecycleFacts(stacks: readonly StackTemplate[]): LifecycleFact[] {
  return stacks.flatMap((stack) => ofType(stack, 'AWS::S3::Bucket').flatMap(([id, bucket]) =>
    (((bucket.Properties.LifecycleConfiguration as Json | undefined)?.Rules ?? []) as Json[]).map((rule) => {
      const tags = ((rule.TagFilters ?? []) as Json[]).map((t) => `tag \`${text(t.Key)}=${text(t.Value)}\``);
      const applies = [rule.Prefix ? `prefix \`${text(rule.Prefix)}\`` : '', ...tags].filter(Boolean).join(', ') || 'every object';
      const abort = (rule.AbortIncompleteMultipartUpload as Json | undefined)?.DaysAfterInitiation;
      const action = [rule.ExpirationInDays ? `expire after ${text(rule.ExpirationInDays)} d` : '', abort ? `abort incomplete uploads after ${text(abort)} d` : ''].filter(Boolean).join('; ');
      return { bucket: `${stack.name}/${constructName(id)}`, rule: text(rule.Id ?? '?'), applies, action };
    })));
}
