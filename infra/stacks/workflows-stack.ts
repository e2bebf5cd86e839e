/**
 * Background work (decision 42): the jobs queue and its consumer, the schedules, the object-deletion worker, and the
 * state machines from infra/workflows/*.asl.json (the files the local runtime runs too), with their alarms.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Metric, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { EventField, Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { FilterPattern, LogGroup, MetricFilter, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { workers, workflows, type WorkerDef, type WorkflowDef } from '#infra/routes.ts';
import { functionGroupAlarms, thresholdAlarm } from '../constructs/alarms.ts';
import { publish, read, resourcesOf } from '../constructs/handoff.ts';
import { acknowledge } from '../constructs/nag.ts';
import { REPO_ROOT, type ServiceFunction } from '../constructs/service-function.ts';
import { JOBS_MAX_RECEIVES } from '#shared/notices/outbox.ts';
import { accessOf } from './access.ts';
import { functionId, manifestFunction, reservationsOf, type FunctionContext } from './functions.ts';
import { functionSettings, type ServiceSettings } from './settings.ts';
// What the seal function logs when the imported chain does not certify its KMS key: it then refuses to seal.
import { SEAL_KEY_MISMATCH_LOG } from '#shared/sealing/seal-key-check.ts';

export interface WorkflowsStackProps extends StackProps {
  settings: ServiceSettings;
  logRetention: RetentionDays;
}

/** The EMF metrics the functions write (shared/adapters/emf-metrics.ts): namespace Esign, dimension service. */
const esignMetric = (metricName: string, dimensions: Record<string, string> = {}) =>
  new Metric({ namespace: 'Esign', metricName, dimensionsMap: { service: 'esign', ...dimensions }, statistic: 'Sum', period: Duration.minutes(5) });

/** SES reputation (account level): SES reviews an account at a 5 % bounce or 0.1 % complaint rate; these alarm before. */
const SES_BOUNCE_RATE = 0.04;
const SES_COMPLAINT_RATE = 0.0008;

export class WorkflowsStack extends Stack {
  readonly jobsQueue: Queue;
  /** Where the asynchronously invoked functions (schedules, S3 deletion events) put an event that failed every retry. */
  readonly asyncFailures: Queue;
  readonly stateMachines: Record<string, StateMachine> = {};
  readonly functions: Record<string, ServiceFunction> = {};
  private readonly alarmTopic: Topic;
  private readonly alarmAction: SnsAction;
  private readonly jobsMaxConcurrency: number;

  constructor(scope: Construct, id: string, props: WorkflowsStackProps) {
    super(scope, id, props);
    const { settings } = props;
    this.jobsMaxConcurrency = settings.jobsMaxConcurrency;

    const topicKey = new Key(this, 'AlarmTopicKey', { description: 'Encrypts the alarm topic', enableKeyRotation: true, removalPolicy: RemovalPolicy.DESTROY });
    topicKey.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey');
    this.alarmTopic = new Topic(this, 'Alarms', { displayName: `${settings.prefix} alarms`, masterKey: topicKey, enforceSSL: true });
    if (settings.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(settings.alarmEmail));
    this.alarmAction = new SnsAction(this.alarmTopic);

    const jobsWorker = workers.find((w) => w.trigger.kind === 'queue');
    const jobsTimeout = Duration.seconds(jobsWorker ? accessOf(jobsWorker.handler).timeoutSeconds ?? 15 : 30);
    const jobsDlq = this.deadLetterQueue('JobsDlq', 'Jobs that failed five times');
    this.jobsQueue = new Queue(this, 'JobsQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Six times the consumer's timeout, as Lambda advises for queue event sources.
      visibilityTimeout: Duration.seconds(6 * jobsTimeout.toSeconds()),
      // The jobs worker fails a bulk-send chunk's rows on the last delivery, so the batch ends.
      deadLetterQueue: { queue: jobsDlq, maxReceiveCount: JOBS_MAX_RECEIVES },
    });
    this.alarm('JobsQueueAge', this.jobsQueue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
      'Jobs (invitations, notifications, webhook deliveries, bulk-send rows) have waited 15 minutes or more: the jobs worker is failing, throttled or capped (jobsMaxConcurrency)', 15 * 60);
    this.asyncFailures = this.deadLetterQueue('AsyncFailures', 'Scheduled or S3-event invocations that failed every retry (the record names the function; the sweeps run again on their next tick)');

    // The state machines have fixed names, so their ARNs are known before they exist (task functions come first).
    const machineArn = (name: 'seal-envelope' | 'webhook-retry') =>
      this.formatArn({ service: 'states', resource: 'stateMachine', resourceName: this.machineName(name), arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    const own = {
      jobsQueueUrl: this.jobsQueue.queueUrl,
      jobsQueueArn: this.jobsQueue.queueArn,
      sealStateMachineArn: machineArn('seal-envelope'),
      webhookRetryStateMachineArn: machineArn('webhook-retry'),
    };
    const resources = resourcesOf(this, settings.prefix, own);
    const context: FunctionContext = { resources, settings: functionSettings(settings, read(this, settings.prefix, 'sealKeyId')), logRetention: props.logRetention, reserved: reservationsOf(settings) };

    for (const workflow of workflows) this.workflow(workflow, context);
    for (const worker of workers) this.worker(worker, context);
    this.serviceAlarms();
    publish(this, settings.prefix, own);
    publish(this, settings.prefix, { alarmTopicArn: this.alarmTopic.topicArn });

    new CfnOutput(this, 'JobsQueueUrl', { value: this.jobsQueue.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarmTopic.topicArn, description: 'Subscribe to get the alarms' });
  }

  private machineName(workflow: string): string {
    return `${this.stackName}-${workflow}`;
  }

  /** The state machine from its ASL file, each Task's variable substituted with its function's ARN. */
  private workflow(workflow: WorkflowDef, context: FunctionContext): StateMachine {
    const substitutions: Record<string, string> = {};
    const invoked: string[] = [];
    for (const [state, task] of Object.entries(workflow.tasks)) {
      const fn = this.functions[task.handler] ??= manifestFunction(this, task.handler, `${workflow.name}: ${state}`, context);
      substitutions[task.variable] = fn.fn.functionArn;
      invoked.push(fn.fn.functionArn);
    }
    const id = functionId(workflow.name);
    const logs = new LogGroup(this, `${id}Logs`, {
      logGroupName: `/aws/vendedlogs/states/${this.machineName(workflow.name)}`,
      retention: context.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const machine = new StateMachine(this, id, {
      stateMachineName: this.machineName(workflow.name),
      definitionBody: DefinitionBody.fromString(readFileSync(join(REPO_ROOT, workflow.definition), 'utf8')),
      definitionSubstitutions: substitutions,
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
    });
    // The unqualified ARNs the Task states name, nothing else (grantInvoke would add every version too).
    machine.addToRolePolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: invoked }));
    acknowledge(machine, 'IAM5[Resource::*]', 'Step Functions log delivery to CloudWatch Logs: these logs:*LogDelivery and resource-policy actions accept no resource narrower than *');
    acknowledge(machine, 'SF2', 'X-Ray is off: every execution is logged (level ALL) and named after its envelope or delivery, which is how failures are traced');
    this.alarm(`${id}Failed`, machine.metricFailed({ period: Duration.minutes(5), statistic: 'Sum' }), `${workflow.name}: an execution failed (for sealing, the envelope stays in_progress until a re-run)`);
    this.alarm(`${id}TimedOut`, machine.metricTimedOut({ period: Duration.minutes(5), statistic: 'Sum' }), `${workflow.name}: an execution timed out`);
    this.stateMachines[workflow.name] = machine;
    return machine;
  }

  private worker(worker: WorkerDef, context: FunctionContext): void {
    const fn = manifestFunction(this, worker.handler, `worker: ${worker.name}`, context);
    this.functions[worker.handler] = fn;
    const trigger = worker.trigger;
    switch (trigger.kind) {
      case 'queue':
        // A cap, so a bulk send cannot take every instance the account has from the API and the seal.
        fn.fn.addEventSource(new SqsEventSource(this.jobsQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: this.jobsMaxConcurrency }));
        return;
      case 'schedule': {
        this.keepFailedEvents(fn);
        if (trigger.everySeconds % 60 !== 0) throw new Error(`${worker.name}: EventBridge schedules run in whole minutes (everySeconds ${String(trigger.everySeconds)})`);
        new Rule(this, `${functionId(worker.handler)}Schedule`, {
          description: `${worker.name}, every ${String(trigger.everySeconds)} s`,
          schedule: Schedule.rate(Duration.seconds(trigger.everySeconds)),
          targets: [new LambdaFunction(fn.fn, { retryAttempts: 2 })],
        });
        return;
      }
      case 'objectRemoved': {
        this.keepFailedEvents(fn);
        // S3 deletions, lifecycle expirations included, as EventBridge events reshaped into the S3 notification
        // records the handler reads. EventBridge keeps the bucket in the data stack free of a reference to this one.
        const dlq = this.deadLetterQueue(`${functionId(worker.handler)}Dlq`, `${worker.name} events that could not be delivered`);
        new Rule(this, `${functionId(worker.handler)}Events`, {
          description: `${worker.name}: objects deleted under ${trigger.prefixes.join(', ')}`,
          eventPattern: {
            source: ['aws.s3'],
            detailType: ['Object Deleted'],
            detail: { bucket: { name: [context.resources.bucketName] }, object: { key: trigger.prefixes.map((prefix) => ({ prefix })) } },
          },
          targets: [new LambdaFunction(fn.fn, {
            deadLetterQueue: dlq,
            retryAttempts: 8,
            event: RuleTargetInput.fromObject({
              Records: [{
                eventSource: 'aws:s3',
                eventName: EventField.fromPath('$.detail.reason'),
                eventTime: EventField.time,
                s3: { bucket: { name: EventField.fromPath('$.detail.bucket.name') }, object: { key: EventField.fromPath('$.detail.object.key') } },
              }],
            }),
          })],
        });
        return;
      }
      default: {
        const unknown: { kind: string } = trigger;
        throw new Error(`${worker.name}: no AWS wiring for a ${unknown.kind} trigger (infra/stacks/workflows-stack.ts)`);
      }
    }
  }

  /**
   * An invocation Lambda makes asynchronously (EventBridge schedules and events) that fails every retry goes to the
   * failures queue, not nowhere: two retries, then the event and the error are kept there for 14 days.
   */
  private keepFailedEvents(fn: ServiceFunction): void {
    fn.fn.configureAsyncInvoke({ onFailure: new SqsDestination(this.asyncFailures), retryAttempts: 2, maxEventAge: Duration.hours(6) });
  }

  /** Alarms on what the functions, mail and sealing do, beyond the queues and state machines. */
  private serviceAlarms(): void {
    const fns = (handlers: string[]) => handlers.flatMap((handler) => (this.functions[handler] ? [this.functions[handler].fn] : []));
    const sealChain = workflows.filter((w) => w.name === 'seal-envelope').flatMap((w) => Object.values(w.tasks).map((task) => task.handler));
    const others = Object.keys(this.functions).filter((handler) => !sealChain.includes(handler));
    functionGroupAlarms(this, 'Workers', fns(others), this.alarmAction, {
      errors: 'Workers (jobs, sweeps, webhook retries, deletions) failed: each function\'s Errors metric tells which, its logs why; queued jobs are retried, then dead-lettered',
      throttles: 'Workers were throttled: the account\'s Lambda concurrency is exhausted (raise the limit, or lower jobsMaxConcurrency)',
    });
    functionGroupAlarms(this, 'SealChain', fns(sealChain), this.alarmAction, {
      errors: 'Sealing failed (seal, finalize or its failure record): the envelope stays in_progress and the seal sweep retries; read the seal function\'s logs',
      throttles: 'Sealing was throttled: the account\'s Lambda concurrency is exhausted; reserve concurrency for the seal (reservedConcurrency)',
    });
    this.alarm('SealStalled', esignMetric('AuditEvents', { event: 'envelope.seal_stalled' }),
      'Sealing stalled: every seal round of an envelope failed and the sweep gave up (envelope.seal_stalled in its audit trail). Read the seal logs, fix the cause, then restart the seal');
    this.alarm('OutboxDeadLetters', esignMetric('OutboxDeadLetters'),
      'A notification or webhook event was given up on after its retries (the sender\'s audit trail records it): read the jobs worker\'s logs');
    this.alarm('SesBounceRate', new Metric({ namespace: 'AWS/SES', metricName: 'Reputation.BounceRate', statistic: 'Maximum', period: Duration.hours(1) }),
      `SES bounce rate at ${String(SES_BOUNCE_RATE * 100)} % or more: SES reviews the account at 5 % and may pause sending. Check the recipients' addresses`, SES_BOUNCE_RATE);
    this.alarm('SesComplaintRate', new Metric({ namespace: 'AWS/SES', metricName: 'Reputation.ComplaintRate', statistic: 'Maximum', period: Duration.hours(1) }),
      `SES complaint rate at ${String(SES_COMPLAINT_RATE * 100)} % or more: SES reviews the account at 0.1 %. Check who receives what`, SES_COMPLAINT_RATE);
    const seal = workflows.flatMap((w) => Object.values(w.tasks)).find((task) => accessOf(task.handler).sign);
    const sealFn = seal ? this.functions[seal.handler] : undefined;
    if (sealFn) {
      const mismatch = new MetricFilter(this, 'SealCertificateMismatchFilter', {
        logGroup: sealFn.logGroup,
        filterPattern: FilterPattern.literal(`"${SEAL_KEY_MISMATCH_LOG}"`),
        metricNamespace: 'Esign',
        metricName: 'SealCertificateMismatch',
        metricValue: '1',
      });
      this.alarm('SealCertificateMismatch', mismatch.metric({ statistic: 'Sum', period: Duration.minutes(5) }),
        'The seal certificate chain does not certify the seal key (imported for another key?): the seal function refuses to seal. Import the chain issued for this key (npm run seal-cert)');
    }
  }

  private deadLetterQueue(id: string, what: string): Queue {
    const queue = new Queue(this, id, { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    acknowledge(queue, 'SQS3', 'This queue is itself a dead-letter queue');
    this.alarm(`${id}Depth`, queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }), `${what}: messages are waiting in ${id}`);
    // Kept 14 days: at 10 days the oldest is about to be lost.
    this.alarm(`${id}Age`, queue.metricApproximateAgeOfOldestMessage({ period: Duration.hours(1), statistic: 'Maximum' }),
      `${what}: the oldest message in ${id} is 10 days old and is deleted at 14; redrive or inspect it now`, 10 * 86_400);
    return queue;
  }

  private alarm(id: string, metric: IMetric, description: string, threshold = 1): void {
    thresholdAlarm(this, id, this.alarmAction, { metric, description, threshold });
  }
}
