/**
 * The whole service as four stacks: data -> web (API gateway + signing host) -> workflows -> api. They share values
 * through SSM parameters read at deploy (infra/constructs/handoff.ts), not through exports, so the order is stated
 * here with stack dependencies.
 */
import type { App, Environment } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ApiStack } from './api-stack.ts';
import { DataStack } from './data-stack.ts';
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
  const common = { ...(env ? { env } : {}), tags: { service: settings.prefix }, settings, logRetention: logRetentionOf(settings.logRetentionDays) };
  const data = new DataStack(app, `${settings.prefix}Data`, { ...common, description: 'e-signature service: table, documents bucket, keys, secrets' });
  const web = new WebStack(app, `${settings.prefix}Web`, { ...common, description: 'e-signature service: HTTP API gateway and the signing host' });
  const workflows = new WorkflowsStack(app, `${settings.prefix}Workflows`, { ...common, description: 'e-signature service: jobs queue, workers, schedules, sealing and webhook workflows' });
  const api = new ApiStack(app, `${settings.prefix}Api`, { ...common, description: 'e-signature service: one function and one route per manifest row' });
  web.addStackDependency(data, 'reads the origin-verify secret ARN');
  workflows.addStackDependency(data, 'reads the table, bucket, keys, secrets and seal certificate');
  workflows.addStackDependency(web, 'reads the API and signing host URLs');
  api.addStackDependency(data, 'reads the table, bucket, keys and secrets');
  api.addStackDependency(web, 'adds its routes to the HTTP API');
  api.addStackDependency(workflows, 'reads the jobs queue and the state machines');
  return { data, web, workflows, api };
}
