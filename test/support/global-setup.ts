import type { TestProject } from 'vitest/node';
import { startLocalStack, type LocalStack } from '#infra/local/stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    signingUrl: string;
    dynamodbEndpoint: string;
    s3Endpoint: string;
    sesEndpoint: string;
    devClientId: string;
    devClientSecret: string;
    /** For tests that forge or expire bearer tokens; never exposed outside the test process. */
    jwtSecret: string;
  }
}

let stack: LocalStack | undefined;

/**
 * Applications keep the default budget (600 per minute) unless created with plan `test`, which the rate-limit tests
 * exhaust. Every test request comes from 127.0.0.1, so the per-address budget is raised out of the way.
 */
export const TEST_RATE_LIMITS = { plans: { test: { limit: 5, windowSeconds: 60 } }, perIp: { limit: 100_000, windowSeconds: 60 } };

/** One local stack (in-memory DynamoDB Local, s3rver, SES) shared by every test file. */
export async function setup(project: TestProject): Promise<void> {
  stack = await startLocalStack({ port: 0, signingPort: 0, webhookTimeoutMs: 1500, rateLimits: TEST_RATE_LIMITS });
  project.provide('apiUrl', stack.apiUrl);
  project.provide('signingUrl', stack.signingUrl);
  project.provide('dynamodbEndpoint', stack.endpoints.dynamodb);
  project.provide('s3Endpoint', stack.endpoints.s3);
  project.provide('sesEndpoint', stack.endpoints.ses);
  project.provide('devClientId', stack.devApp.clientId);
  project.provide('devClientSecret', stack.devApp.clientSecret);
  project.provide('jwtSecret', stack.config.jwtSecret);
}

export async function teardown(): Promise<void> {
  await stack?.stop();
}
