import type { TestProject } from 'vitest/node';
import { startLocalStack, type LocalStack } from '#local/stack.ts';
import type { FunctionSettings, ServiceResources } from '#infra/stacks/environment.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    signingUrl: string;
    dynamodbEndpoint: string;
    s3Endpoint: string;
    sesEndpoint: string;
    /** The local jobs queue's SQS endpoint: tests that deliver a job twice send it there. */
    sqsEndpoint: string;
    devClientId: string;
    devClientSecret: string;
    /** For tests that forge or expire bearer tokens; never exposed outside the test process. */
    jwtSecret: string;
    /** The AWS calls every local function made (one JSON line per distinct call), and what they were bound to. */
    awsCallLog: string;
    localResources: ServiceResources;
    localSettings: FunctionSettings;
    /** The console's local OpenID provider, its client, and the development admin who signs in there. */
    oidcIssuer: string;
    oidcClientId: string;
    devAdminEmail: string;
    devAdminPassword: string;
  }
}

/**
 * Vitest runs the global setup once per project (main, clock, trace), each in its own module instance: the stack is
 * kept on globalThis so that all of them share one, and it stops when the last project is done with it. The clock
 * group moves that stack's clock after the main group, and the trace reads the calls both made.
 */
const SHARED = Symbol.for('esign.test.localStack');
interface Shared { stack: Promise<LocalStack>; projects: number }
const holder = globalThis as { [SHARED]?: Shared };

/**
 * Applications keep the default budget (600 per minute) unless created with plan `test`, which the rate-limit tests
 * exhaust. Every test request comes from 127.0.0.1, so the per-address budget is raised out of the way.
 */
/** Plan `test`: a budget small enough to exhaust; plan `sweep`: room for a test that calls every route many times in a minute. */
export const TEST_RATE_LIMITS = {
  plans: { test: { limit: 5, windowSeconds: 60 }, sweep: { limit: 100_000, windowSeconds: 60 } },
  perIp: { limit: 100_000, windowSeconds: 60 },
};

/**
 * The local timestamp authority's certificates live 400 days instead of 825, so the archive renewal clock test reaches
 * a certificate's last 90 days (and the authority's renewal at half its lifetime) with a jump of under a year, which
 * leaves the local root and seal certificates well within theirs for the clock tests that follow.
 */
export const TEST_TSA_VALID_DAYS = 400;

/** One local stack (in-memory DynamoDB Local, s3rver, SES, fauxqs) shared by every test file of every project. */
export async function setup(project: TestProject): Promise<void> {
  const shared = (holder[SHARED] ??= { stack: startLocalStack({ port: 0, signingPort: 0, webhookTimeoutMs: 1500, rateLimits: TEST_RATE_LIMITS, tsaValidDays: TEST_TSA_VALID_DAYS }), projects: 0 });
  shared.projects++;
  const stack = await shared.stack;
  project.provide('apiUrl', stack.apiUrl);
  project.provide('signingUrl', stack.signingUrl);
  project.provide('dynamodbEndpoint', stack.endpoints.dynamodb);
  project.provide('s3Endpoint', stack.endpoints.s3);
  project.provide('sesEndpoint', stack.endpoints.ses);
  project.provide('sqsEndpoint', stack.endpoints.sqs);
  project.provide('devClientId', stack.devApp.clientId);
  project.provide('devClientSecret', stack.devApp.clientSecret);
  project.provide('oidcIssuer', stack.signIn.oidc.issuer);
  project.provide('oidcClientId', stack.signIn.oidc.clientId);
  project.provide('devAdminEmail', stack.devAdmin.email);
  project.provide('devAdminPassword', stack.devAdmin.password);
  project.provide('jwtSecret', stack.config.jwtSecret);
  project.provide('awsCallLog', stack.awsCallLog);
  project.provide('localResources', stack.resources);
  project.provide('localSettings', stack.settings);
}

export async function teardown(): Promise<void> {
  const shared = holder[SHARED];
  if (!shared || --shared.projects > 0) return;
  holder[SHARED] = undefined;
  await (await shared.stack).stop();
}
