/**
 * Builds a manifest function: a ServiceFunction with its environment (environment.ts, the same the local runtime
 * gives it) and the grants of its access row. Shared by the api and workflows stacks, so a route and a worker are
 * granted the same way.
 */
import { basename } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { sealFontFiles, type BundleOptions } from '../constructs/bundling.ts';
import { grantDocuments, grantJobQueue, grantMail, grantProviderSecrets, grantSealChain, grantSecrets, grantSigningKey, grantSms, grantIdentities, grantStateMachine, grantTable, grantTrafficRecords } from '../constructs/grants.ts';
import { ServiceFunction } from '../constructs/service-function.ts';
import { buildOpenApi } from '../openapi.ts';
import { accessOf } from './access.ts';
import { cscSecretArns, functionEnvironment, isRoute, SECRET_RESOURCES, unboundAdapters, type FunctionSettings, type ServiceResources } from './environment.ts';
import type { ServiceSettings } from './settings.ts';

/** What a manifest function may be bound to; each function gets only what its access row names. */
export interface FunctionContext {
  resources: ServiceResources;
  settings: FunctionSettings;
  logRetention: RetentionDays;
  /** Reserved concurrency by handler module, for the functions that have some (reservationsOf). */
  reserved?: Readonly<Record<string, number>>;
}

/** The functions a deployment may reserve concurrency for (settings `reservedConcurrency`): the seal task and the sign route. */
export const RESERVABLE = { seal: 'functions/workers/seal.ts', sign: 'functions/api/sign.ts' } as const;

/** Reserved concurrency by handler module, from the settings (none unless configured). */
export function reservationsOf(settings: Pick<ServiceSettings, 'reservedConcurrency'>): Record<string, number> {
  return Object.fromEntries(Object.entries(RESERVABLE).flatMap(([key, handler]) => {
    const count = settings.reservedConcurrency[key as keyof typeof RESERVABLE];
    return count ? [[handler, count]] : [];
  }));
}

/** `functions/api/oauth-token.ts` -> `OauthToken`. */
export const functionId = (handler: string) =>
  basename(handler, '.ts').split(/[^A-Za-z0-9]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

/** The API description as the bundles that read it carry it; the openapi route puts the deployment's URL in `servers`. */
let apiDescription: string | undefined;
const apiDescriptionFile = () => (apiDescription ??= JSON.stringify(buildOpenApi({ serverUrl: '/' })));

/**
 * How `handler` is bundled: split into chunks (what only a dynamic import reaches is neither read nor evaluated at
 * the cold start), with the seal's fonts if it signs, with the API description if it reads it (openapi.json,
 * shared/deps.ts), without the adapters its access does not bind.
 */
export function bundleOptionsOf(handler: string): BundleOptions {
  const access = accessOf(handler);
  return {
    files: access.sign ? sealFontFiles() : [],
    omit: unboundAdapters(handler),
    split: true,
    ...(access.apiDescription ? { generated: { 'openapi.json': apiDescriptionFile() } } : {}),
  };
}

export function manifestFunction(scope: Construct, handler: string, description: string, ctx: FunctionContext): ServiceFunction {
  const access = accessOf(handler);
  const { resources } = ctx;
  const fn = new ServiceFunction(scope, functionId(handler), {
    entry: handler,
    description,
    logRetention: ctx.logRetention,
    ...(access.memorySize ? { memorySize: access.memorySize } : {}),
    ...(access.timeoutSeconds ? { timeout: Duration.seconds(access.timeoutSeconds) } : {}),
    ...(ctx.reserved?.[handler] ? { reservedConcurrency: ctx.reserved[handler] } : {}),
    bundle: bundleOptionsOf(handler),
  });
  fn.addEnvironments(functionEnvironment(handler, resources, ctx.settings));
  if (access.table) grantTable(fn, resources.tableArn, access.table);
  if (isRoute(handler) && access.table !== 'write') grantTrafficRecords(fn, resources.tableArn);
  if (access.documents) grantDocuments(fn, resources.bucketArn, resources.encryptionKeyArn, access.documents);
  grantSecrets(fn, (access.secrets ?? []).map((name) => resources[SECRET_RESOURCES[name]]), resources.encryptionKeyArn);
  if (access.mail) grantMail(fn, ctx.settings.senderEmail);
  if (access.sms) grantSms(fn);
  if (access.identities && ctx.settings.signIn) grantIdentities(fn, ctx.settings.signIn.userPoolId);
  if (access.jobs) grantJobQueue(fn, resources.jobsQueueArn);
  for (const workflow of access.starts ?? []) grantStateMachine(fn, workflow === 'seal' ? resources.sealStateMachineArn : resources.webhookRetryStateMachineArn);
  if (access.sign) grantSigningKey(fn, resources.sealKeyArn, ctx.settings.sealCertificateParameter ?? null);
  else if (access.sealChain) grantSealChain(fn, ctx.settings.sealCertificateParameter ?? null);
  if (access.sign && ctx.settings.csc) grantProviderSecrets(fn, cscSecretArns(ctx.settings.csc));
  return fn;
}
