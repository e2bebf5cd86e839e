/** The whole service as four stacks: data -> web (API gateway + signing host) -> workflows -> api. */
import type { App, Environment } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ApiStack } from './api-stack.ts';
import { DataStack } from './data-stack.ts';
import type { FunctionContext } from './functions.ts';
import type { ServiceSettings } from './settings.ts';
import { WebStack } from './web-stack.ts';
import { WorkflowsStack } from './workflows-stack.ts';

export interface Service {
  data: DataStack;
  web: WebStack;
  workflows: WorkflowsStack;
  api: ApiStack;
}

/** CloudWatch accepts only certain retention lengths: the setting is rounded up to the next one. */
function logRetentionOf(days: number): RetentionDays {
  const lengths = Object.values(RetentionDays).flatMap((value) => (typeof value === 'number' ? [{ days: value.valueOf(), value }] : []));
  const fitting = lengths.filter((length) => length.days >= days).sort((a, b) => a.days - b.days);
  return fitting[0]?.value ?? RetentionDays.INFINITE;
}

export function createService(app: App, settings: ServiceSettings, env?: Environment): Service {
  const logRetention = logRetentionOf(settings.logRetentionDays);
  const common = { ...(env ? { env } : {}), tags: { service: settings.prefix } };
  const data = new DataStack(app, `${settings.prefix}Data`, { ...common, settings, logRetention, description: 'e-signature service: table, documents bucket, keys, secrets' });
  const web = new WebStack(app, `${settings.prefix}Web`, { ...common, settings, logRetention, originVerifySecret: data.secrets.ORIGIN_VERIFY_SECRET, description: 'e-signature service: HTTP API gateway and the signing host' });
  const context: Omit<FunctionContext, 'jobs' | 'stateMachines'> = {
    settings, logRetention, baseUrl: web.apiUrl, signingUrl: web.signingUrl,
    table: data.table, documents: data.documents, secrets: data.secrets, signingKey: data.signingKey,
  };
  const workflows = new WorkflowsStack(app, `${settings.prefix}Workflows`, { ...common, data, context, description: 'e-signature service: jobs queue, workers, schedules, sealing and webhook workflows' });
  const api = new ApiStack(app, `${settings.prefix}Api`, {
    ...common,
    httpApi: web.httpApi,
    context: { ...context, jobs: workflows.jobsQueue, stateMachines: stateMachineArns(workflows) },
    description: 'e-signature service: one function and one route per manifest row',
  });
  // The seal certificate is read by parameter name, not by reference: the order is stated.
  workflows.addStackDependency(data);
  return { data, web, workflows, api };
}

function stateMachineArns(workflows: WorkflowsStack): FunctionContext['stateMachines'] {
  const seal = workflows.stateMachines['seal-envelope']?.stateMachineArn;
  const webhookRetry = workflows.stateMachines['webhook-retry']?.stateMachineArn;
  return { ...(seal ? { seal } : {}), ...(webhookRetry ? { webhookRetry } : {}) };
}
