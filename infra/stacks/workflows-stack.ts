/**
 * Background work (DESIGN 5): the jobs queue and its consumer, the schedules, the object-deletion worker, and the
 * state machines from infra/workflows/*.asl.json (the files the local runtime runs too), with their alarms.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { EventField, Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { workers, workflows, type WorkerDef, type WorkflowDef } from '#infra/routes.ts';
import { publish, resourcesOf } from '../constructs/handoff.ts';
import { acknowledge } from '../constructs/nag.ts';
import { REPO_ROOT, type ServiceFunction } from '../constructs/service-function.ts';
import { JOBS_MAX_RECEIVES } from '#domain/outbox.ts';
import { accessOf } from './access.ts';
import { functionId, manifestFunction, type FunctionContext } from './functions.ts';
import { functionSettings, type ServiceSettings } from './settings.ts';

export interface WorkflowsStackProps extends StackProps {
  settings: ServiceSettings;
  logRetention: RetentionDays;
}



export class WorkflowsStack extends Stack {
  readonly jobsQueue: Queue;
  readonly stateMachines: Record<string, StateMachine> = {};
  readonly functions: Record<string, ServiceFunction> = {};
  private readonly alarmTopic: Topic;

  constructor(scope: Construct, id: string, props: WorkflowsStackProps) {
    super(scope, id, props);
    const { settings } = props;

    const topicKey = new Key(this, 'AlarmTopicKey', { description: 'Encrypts the alarm topic', enableKeyRotation: true, removalPolicy: RemovalPolicy.DESTROY });
    topicKey.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey');
    this.alarmTopic = new Topic(this, 'Alarms', { displayName: `${settings.prefix} alarms`, masterKey: topicKey, enforceSSL: true });
    if (settings.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(settings.alarmEmail));

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
    const context: FunctionContext = { resources, settings: functionSettings(settings), logRetention: props.logRetention };

    for (const workflow of workflows) this.workflow(workflow, context);
    for (const worker of workers) this.worker(worker, context);
    publish(this, settings.prefix, own);

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
        fn.fn.addEventSource(new SqsEventSource(this.jobsQueue, { batchSize: 10, reportBatchItemFailures: true }));
        return;
      case 'schedule': {
        if (trigger.everySeconds % 60 !== 0) throw new Error(`${worker.name}: EventBridge schedules run in whole minutes (everySeconds ${String(trigger.everySeconds)})`);
        new Rule(this, `${functionId(worker.handler)}Schedule`, {
          description: `${worker.name}, every ${String(trigger.everySeconds)} s`,
          schedule: Schedule.rate(Duration.seconds(trigger.everySeconds)),
          targets: [new LambdaFunction(fn.fn, { retryAttempts: 2 })],
        });
        return;
      }
      case 'objectRemoved': {
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

  private deadLetterQueue(id: string, what: string): Queue {
    const queue = new Queue(this, id, { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    acknowledge(queue, 'SQS3', 'This queue is itself a dead-letter queue');
    this.alarm(`${id}Depth`, queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }), `${what}: messages are waiting in ${id}`);
    return queue;
  }

  private alarm(id: string, metric: IMetric, description: string): void {
    new Alarm(this, id, {
      metric,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    }).addAlarmAction(new SnsAction(this.alarmTopic));
  }
}
