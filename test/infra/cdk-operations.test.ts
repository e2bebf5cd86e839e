/**
 * What keeps the deployed service running and tells someone when it does not: every stack within CloudFormation's
 * resource limit with room to grow, no asynchronous event lost, the jobs queue unable to starve the rest, and an
 * alarm on each thing that usually breaks, all to the one alarm topic.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS_PER_ALARM } from '#infra/constructs/alarms.ts';
import { RESERVABLE } from '#infra/stacks/functions.ts';
import { DEFAULT_SETTINGS, settingsFromContext } from '#infra/stacks/settings.ts';
import { SEAL_KEY_MISMATCH_LOG } from '#shared/sealing/seal-key-check.ts';
import { routes, workers } from '#infra/routes.ts';
import { allTemplates, manifestFunctions, newApp, resourcesOfType, synthesize, TEST_SETTINGS, type Json, type Resource, type Synthesized } from '#test/support/templates.ts';

/**
 * CloudFormation refuses a stack of more than 500 resources. 300 leaves each stack room for what comes next: the api
 * stack holds two resources a route (route, integration), a route tag's nested stack five a function.
 */
const MAX_RESOURCES = 300;

let synthesized: Synthesized;
beforeAll(() => { synthesized = synthesize(); });

const text = (value: unknown) => JSON.stringify(value);
const resources = (template: { toJSON(): unknown }) => (template.toJSON() as { Resources: Record<string, Resource> }).Resources;
const alarms = (types = ['AWS::CloudWatch::Alarm']) => allTemplates(synthesized)
  .flatMap(([stack, template]) => Object.entries(resources(template)).filter(([, r]) => types.includes(r.Type)).map(([id, r]) => ({ stack, id, props: r.Properties })));
const getAtt = (value: unknown) => ((value as Json | undefined)?.['Fn::GetAtt'] as string[] | undefined)?.[0];

describe('stack size', () => {
  it(`every stack, nested ones included, holds at most ${String(MAX_RESOURCES)} resources`, () => {
    const counts = allTemplates(synthesized).map(([name, template]) => [name, Object.keys(resources(template)).length] as const);
    for (const [name, count] of counts) expect(count, name).toBeLessThanOrEqual(MAX_RESOURCES);
    expect(counts.map(([name]) => name)).toEqual(expect.arrayContaining(['data', 'web', 'workflows', 'api', 'api/RoutesEnvelopes']));
  });

  it('keeps one HTTP API: the routes and integrations in the api stack, each function and its invoke permission in its tag\'s nested stack', () => {
    const api = resources(synthesized.templates.api);
    expect(Object.values(api).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')).toHaveLength(routes.length + 1);
    expect(Object.values(api).filter((r) => r.Type === 'AWS::ApiGatewayV2::Api')).toEqual([]);
    for (const fn of manifestFunctions(synthesized).filter((f) => f.template !== synthesized.templates.workflows)) {
      const permissions = Object.values(resources(fn.template)).filter((r) => r.Type === 'AWS::Lambda::Permission' && getAtt(r.Properties.FunctionName) === fn.logicalId);
      expect(permissions.map((p) => p.Properties.Principal), fn.description).toEqual(['apigateway.amazonaws.com']);
      const path = fn.description.split(' ')[1] ?? '';
      expect(text(permissions[0]?.Properties.SourceArn), fn.description).toContain(fn.description.startsWith('no route') ? '/*/*"' : `/*/*${path}"`);
    }
  });
});

describe('asynchronous invocations', () => {
  /** Functions something invokes asynchronously: EventBridge rule targets, and S3, SNS or EventBridge invoke permissions. */
  const asyncInvoked = () => allTemplates(synthesized).flatMap(([stack, template]) => {
    const all = resources(template);
    const targets = Object.values(all).filter((r) => r.Type === 'AWS::Events::Rule').flatMap((r) => (r.Properties.Targets as Json[]).map((t) => getAtt(t.Arn)));
    const permitted = Object.values(all).filter((r) => r.Type === 'AWS::Lambda::Permission' && ['events.amazonaws.com', 's3.amazonaws.com', 'sns.amazonaws.com'].includes(String(r.Properties.Principal)))
      .map((r) => getAtt(r.Properties.FunctionName));
    return [...new Set([...targets, ...permitted])].filter((id): id is string => id !== undefined && all[id]?.Type === 'AWS::Lambda::Function').map((id) => ({ stack, template, id }));
  });

  it('every asynchronously invoked function keeps a failed event in an encrypted queue with a retention, alarmed on its depth', () => {
    const invoked = asyncInvoked();
    expect(invoked.length).toBeGreaterThanOrEqual(workers.filter((w) => w.trigger.kind !== 'queue').length);
    for (const { stack, template, id } of invoked) {
      const all = resources(template);
      const config = Object.values(all).find((r) => r.Type === 'AWS::Lambda::EventInvokeConfig' && text(r.Properties.FunctionName) === text({ Ref: id }));
      const destination = getAtt((config?.Properties.DestinationConfig as { OnFailure?: { Destination: unknown } } | undefined)?.OnFailure?.Destination)
        ?? getAtt((all[id]?.Properties.DeadLetterConfig as { TargetArn?: unknown } | undefined)?.TargetArn);
      expect(destination, `${stack}/${id}`).toBeDefined();
      const queue = all[destination!];
      expect(queue?.Type, `${stack}/${id}`).toBe('AWS::SQS::Queue');
      expect(queue?.Properties.SqsManagedSseEnabled ?? queue?.Properties.KmsMasterKeyId, `${stack}/${id}`).toBeTruthy();
      expect(queue?.Properties.MessageRetentionPeriod, `${stack}/${id}`).toBe(14 * 86_400);
      const depth = alarms().filter((a) => a.stack === stack && a.props.MetricName === 'ApproximateNumberOfMessagesVisible' && getAtt((a.props.Dimensions as Json[])[0]?.Value) === destination);
      expect(depth, `${stack}/${id}`).toHaveLength(1);
    }
  });
});

describe('concurrency', () => {
  it(`caps the jobs worker's concurrency (default ${String(DEFAULT_SETTINGS.jobsMaxConcurrency)}, from the jobsMaxConcurrency context, 2 to 1000)`, () => {
    synthesized.templates.workflows.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 10 } });
    const capped = synthesize({ ...TEST_SETTINGS, jobsMaxConcurrency: 25 });
    capped.templates.workflows.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 25 } });
    const context = (value: unknown) => settingsFromContext(newApp({ senderEmail: 'sign@example.com', jobsMaxConcurrency: value }).node);
    expect(context('40').jobsMaxConcurrency).toBe(40);
    for (const bad of ['1', '1001', '2.5', 'many']) expect(() => context(bad), bad).toThrow(/jobsMaxConcurrency/);
  });

  it('tells every function that mails the jobs cap (its share of the SES rate) and lets it read the account\'s quota', () => {
    const capped = manifestFunctions(synthesize({ ...TEST_SETTINGS, jobsMaxConcurrency: 25 }));
    const mailers = capped.filter((f) => f.env.MAIL_FROM !== undefined);
    expect(mailers.map((f) => f.handler)).toContain('functions/workers/jobs.ts');
    for (const fn of mailers) {
      expect(fn.env.JOBS_MAX_CONCURRENCY, fn.handler).toBe('25');
      expect(text(fn.statements), fn.handler).toContain('ses:GetAccount');
    }
    expect(capped.filter((f) => f.env.MAIL_FROM === undefined).filter((f) => text(f.statements).includes('ses:GetAccount'))).toEqual([]);
  });

  it('reserves concurrency for the seal and the sign route only when asked to (a new account has too little to reserve any)', () => {
    expect(manifestFunctions(synthesized).filter((f) => f.props.ReservedConcurrentExecutions !== undefined)).toEqual([]);
    const reserved = manifestFunctions(synthesize({ ...TEST_SETTINGS, reservedConcurrency: { seal: 5, sign: 3 } }));
    expect(Object.fromEntries(reserved.filter((f) => f.props.ReservedConcurrentExecutions !== undefined).map((f) => [f.handler, f.props.ReservedConcurrentExecutions])))
      .toEqual({ [RESERVABLE.seal]: 5, [RESERVABLE.sign]: 3 });
    const context = (value: unknown) => settingsFromContext(newApp({ senderEmail: 'sign@example.com', reservedConcurrency: value }).node).reservedConcurrency;
    expect(context('{"seal": 4}')).toEqual({ seal: 4, sign: null });
    for (const bad of ['{"seal": 0}', '{"jobs": 3}', '{"sign": "x"}']) expect(() => context(bad), bad).toThrow(/reservedConcurrency/);
  });
});

describe('alarms', () => {
  const topicOf = (stack: string, actions: unknown) => {
    const [action] = actions as Json[];
    if (stack === 'workflows') return getAtt(action) ?? (action?.Ref as string | undefined);
    const parameters = (synthesized.templates.api.toJSON() as { Parameters: Record<string, { Default?: string }> }).Parameters;
    return parameters[String(action?.Ref)]?.Default;
  };

  it('every alarm that notifies, notifies the one alarm topic (by the handed-off ARN outside its stack); the topic mails alarmEmail when set', () => {
    const notifying = alarms(['AWS::CloudWatch::Alarm', 'AWS::CloudWatch::CompositeAlarm']).filter((a) => a.props.AlarmActions !== undefined);
    expect(notifying.length).toBeGreaterThan(20);
    for (const alarm of notifying) {
      expect(alarm.props.AlarmActions, alarm.id).toHaveLength(1);
      expect(topicOf(alarm.stack, alarm.props.AlarmActions), `${alarm.stack}/${alarm.id}`).toMatch(alarm.stack === 'workflows' ? /^Alarms/ : /^\/Esign\/alarm-topic-arn$/);
    }
    synthesized.templates.workflows.resourceCountIs('AWS::SNS::Subscription', 0);
    synthesize({ ...TEST_SETTINGS, alarmEmail: 'ops@example.com' }).templates.workflows.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('watches every function\'s errors and throttles, by group, at most 10 metrics an alarm, each group one notifying composite alarm', () => {
    const functions = manifestFunctions(synthesized);
    for (const metric of ['Errors', 'Throttles']) {
      const parts = alarms().filter((a) => text(a.props.Metrics ?? []).includes(`"MetricName":"${metric}"`) && text(a.props.Metrics ?? []).includes('AWS/Lambda'));
      const watched = parts.flatMap((a) => (a.props.Metrics as { MetricStat?: { Metric: { Dimensions: { Value: unknown }[] } } }[])
        .flatMap((m) => (m.MetricStat ? [text(m.MetricStat.Metric.Dimensions[0]?.Value)] : [])));
      for (const part of parts) {
        expect((part.props.Metrics as Json[]).filter((m) => m.MetricStat).length, part.id).toBeLessThanOrEqual(METRICS_PER_ALARM);
        expect(part.props.AlarmActions, part.id).toBeUndefined();
      }
      // Each function once: by its Ref in its own template (a nested one for the routes).
      expect(watched, metric).toHaveLength(functions.length);
      for (const fn of functions) expect(watched.filter((w) => w === text({ Ref: fn.logicalId })).length, `${metric}: ${fn.description}`).toBe(1);
      const composites = alarms(['AWS::CloudWatch::CompositeAlarm']).filter((a) => new RegExp(`${metric}[0-9A-F]{8}$`).test(a.id));
      expect(composites.map((c) => c.id.replace(/[0-9A-F]{8}$/, '')).sort(), metric).toEqual([`RouteFunction${metric}`, `SealChain${metric}`, `Workers${metric}`]);
      const ruled = composites.reduce((n, c) => n + (text(c.props.AlarmRule).match(/ALARM\(/g) ?? []).length, 0);
      expect(ruled, metric).toBe(parts.length);
    }
  });

  it('alarms on the API\'s 5xx and p99 latency, on the age of every queue\'s oldest message, and on SES bounce and complaint rates', () => {
    const all = alarms();
    const api = all.filter((a) => a.stack === 'api' && a.props.Namespace === 'AWS/ApiGateway');
    expect(api.map((a) => [a.props.MetricName, a.props.Statistic ?? a.props.ExtendedStatistic]).sort()).toEqual([['5xx', 'Sum'], ['Latency', 'p99']]);
    for (const a of api) expect(text(a.props.Dimensions)).toContain('ApiId');
    const queues = resourcesOfType(synthesized.templates.workflows, 'AWS::SQS::Queue').map(([id]) => id);
    expect(queues.length).toBeGreaterThanOrEqual(4);
    for (const queue of queues) {
      expect(all.filter((a) => a.props.MetricName === 'ApproximateAgeOfOldestMessage' && getAtt((a.props.Dimensions as Json[])[0]?.Value) === queue), queue).toHaveLength(1);
    }
    for (const metric of ['Reputation.BounceRate', 'Reputation.ComplaintRate']) {
      const ses = all.filter((a) => a.props.Namespace === 'AWS/SES' && a.props.MetricName === metric);
      expect(ses, metric).toHaveLength(1);
      expect(Number(ses[0]?.props.Threshold), metric).toBeLessThan(metric === 'Reputation.BounceRate' ? 0.05 : 0.001);
    }
  });

  it('alarms when sealing stalls (the envelope.seal_stalled audit event the sweep records) and when the seal\'s chain does not certify its key', () => {
    const all = alarms();
    const stalled = all.filter((a) => a.props.Namespace === 'Esign' && a.props.MetricName === 'AuditEvents');
    expect(stalled).toHaveLength(1);
    expect(stalled[0]?.props.Dimensions).toEqual(expect.arrayContaining([{ Name: 'event', Value: 'envelope.seal_stalled' }, { Name: 'service', Value: 'esign' }]));
    const seal = manifestFunctions(synthesized).find((f) => f.handler === RESERVABLE.seal)!;
    const logGroup = ((seal.props.LoggingConfig as Json).LogGroup as Json).Ref;
    const filters = resourcesOfType(synthesized.templates.workflows, 'AWS::Logs::MetricFilter').map(([, f]) => f.Properties);
    expect(filters).toHaveLength(1);
    expect(filters[0]).toMatchObject({ LogGroupName: { Ref: logGroup }, FilterPattern: `"${SEAL_KEY_MISMATCH_LOG}"` });
    const transformation = (filters[0]?.MetricTransformations as Json[])[0]!;
    expect(all.filter((a) => a.props.MetricName === transformation.MetricName && a.props.Namespace === transformation.MetricNamespace)).toHaveLength(1);
  });
});
