/**
 * Builds a manifest function: a ServiceFunction with its row of access.ts applied through the bind helpers.
 * Shared by the api and workflows stacks, so a route and a worker are granted the same way.
 */
import { basename } from 'node:path';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  bindDocuments, bindJobQueue, bindMail, bindSecrets, bindSigningKey, bindSms, bindStateMachine, bindTable, bindTrafficRecords,
  type DocumentsBucket, type SecretName,
} from '../constructs/bind.ts';
import { sealFontFiles, ServiceFunction } from '../constructs/service-function.ts';
import { accessOf } from './access.ts';
import type { ServiceSettings } from './settings.ts';

/** What a manifest function may be bound to; each function gets only what its access row names. */
export interface FunctionContext {
  settings: ServiceSettings;
  logRetention: RetentionDays;
  baseUrl: string;
  signingUrl: string;
  table: ITable;
  documents: DocumentsBucket;
  secrets: Record<SecretName, ISecret>;
  jobs: IQueue;
  signingKey: IKey;
  /** The seal certificate chain (PEM), for the function that signs. */
  certificatePem?: string;
  stateMachines: { seal?: string; webhookRetry?: string };
  /** Extra environment for every function of this kind (RATE_LIMITS for the API). */
  environment?: Record<string, string>;
  /** Routes: the traffic control every served route runs (rate counters, idempotency records). */
  routes?: boolean;
}

/** `functions/api/oauth-token.ts` -> `OauthToken`. */
export const functionId = (handler: string) =>
  basename(handler, '.ts').split(/[^A-Za-z0-9]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

export function manifestFunction(scope: Construct, handler: string, description: string, ctx: FunctionContext): ServiceFunction {
  const access = accessOf(handler);
  const fn = new ServiceFunction(scope, functionId(handler), {
    entry: handler,
    description,
    service: { baseUrl: ctx.baseUrl, signingUrl: ctx.signingUrl },
    logRetention: ctx.logRetention,
    ...(access.memorySize ? { memorySize: access.memorySize } : {}),
    ...(access.timeout ? { timeout: access.timeout } : {}),
    ...(access.sign ? { fontFiles: sealFontFiles() } : {}),
  });
  for (const [name, value] of Object.entries(ctx.environment ?? {})) fn.addEnvironment(name, value);
  if (access.table) bindTable(fn, ctx.table, access.table);
  if (ctx.routes && access.table !== 'write') bindTrafficRecords(fn, ctx.table);
  if (access.documents) bindDocuments(fn, ctx.documents, access.documents);
  if (access.secrets) bindSecrets(fn, Object.fromEntries(access.secrets.map((name) => [name, ctx.secrets[name]])));
  if (access.mail) bindMail(fn, ctx.settings.senderEmail);
  if (access.sms) bindSms(fn, ctx.settings.smsSenderId);
  if (access.jobs) bindJobQueue(fn, ctx.jobs);
  for (const workflow of access.starts ?? []) {
    const arn = ctx.stateMachines[workflow];
    if (!arn) throw new Error(`${handler} starts the ${workflow} workflow, which is not available where it is built`);
    bindStateMachine(fn, workflow === 'seal' ? 'SEAL_STATE_MACHINE_ARN' : 'WEBHOOK_RETRY_STATE_MACHINE_ARN', arn);
  }
  if (access.sign) {
    if (!ctx.certificatePem) throw new Error(`${handler} signs but has no certificate to sign with`);
    bindSigningKey(fn, ctx.signingKey, ctx.certificatePem);
  }
  return fn;
}
