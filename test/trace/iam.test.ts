/**
 * The IAM trace: every AWS call each function made while the end-to-end and clock suites ran on the shared local
 * stack (recorded by its SDK clients' middleware, local/aws-calls.ts) must be granted by the synthesized policy
 * of that same function. A missing grant fails here, not in production. Runs after the other groups
 * (vitest.config.ts, project `trace`); alone, it has nothing to check and says so.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { AwsCall } from '#local/aws-calls.ts';
import { manifestHandlers, type ServiceResources } from '#infra/stacks/environment.ts';
import { allowed, requestsOf } from '#test/support/iam.ts';
import { LOCAL_USER_POOL_ID } from '#local/sign-in.ts';
import { manifestFunctions, resolverFor, synthesize, TEST_SETTINGS, type SynthesizedFunction } from '#test/support/templates.ts';

/**
 * Functions the suites never run on the local stack, so the trace cannot speak for them; cdk.test.ts pins their grants.
 * deletion-reminders: its daily sweep is started by the scheduler; the retention tests drive it through the clock.
 */
const NOT_TRACED: Record<string, string> = {
  'functions/workers/seal-failed.ts': 'runs only when a seal round fails; shared/envelopes/faults.invariants.test.ts drives it through the same ASL, and cdk.test.ts pins its grants',
};

let resources: ServiceResources;
let functions: Map<string, SynthesizedFunction>;
let calls: AwsCall[];

beforeAll(() => {
  resources = inject('localResources');
  const settings = inject('localSettings');
  // The app as it would deploy with the local stack's sender: the SES condition names it.
  functions = new Map(manifestFunctions(synthesize({ ...TEST_SETTINGS, senderEmail: settings.senderEmail })).map((f) => [f.handler, f]));
  calls = readFileSync(inject('awsCallLog'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AwsCall);
});

/** Whether the role of the calling function grants every request of the call. */
function denials(call: AwsCall): string[] {
  const fn = functions.get(call.function);
  if (!fn) return [`${call.function} is not a manifest function`];
  // The seal key's id names its chain's parameter, which the seal reads: the last part of the key's ARN.
  // The user pool's id is the local one the in-process Cognito answers serve.
  const resolve = resolverFor(fn.template, (key) => (key === 'sealKeyId' ? resources.sealKeyArn.split('/').pop() ?? '' : key === 'userPoolId' ? LOCAL_USER_POOL_ID : resources[key as keyof ServiceResources]));
  return requestsOf(call, resources)
    .filter((request) => !allowed(fn.statements, request, resolve))
    .map((request) => `${call.function}: ${request.action} on ${request.resource}${Object.keys(request.context).length ? ` ${JSON.stringify(request.context)}` : ''} (${call.operation})`);
}

describe('the IAM trace', () => {
  it('every AWS call a function made on the local stack is granted by that function\'s synthesized role', () => {
    expect(calls.length, 'no AWS call was recorded: this test checks the calls of the e2e and clock suites, run it with them (npm test)').toBeGreaterThan(0);
    expect(calls.flatMap(denials)).toEqual([]);
  });

  it('covers every function of the manifest', () => {
    const traced = new Set(calls.map((call) => call.function));
    const untraced = manifestHandlers().filter((handler) => !traced.has(handler) && !(handler in NOT_TRACED));
    expect(untraced, 'functions no suite ran on the local stack: exercise them end to end, or list them in NOT_TRACED with why').toEqual([]);
  });

  it('would fail a call its role does not grant: a route writing an envelope item with only its traffic grant', () => {
    const table = resources.tableName;
    const openapi = { function: 'functions/api/openapi.ts', service: 'dynamodb', operation: 'PutItem', action: 'PutItem', table } as const;
    expect(denials({ ...openapi, keyPrefix: 'RATE#' })).toEqual([]);
    expect(denials({ ...openapi, keyPrefix: 'ENV#' })).toHaveLength(1);
    expect(denials({ function: 'functions/api/get-envelope.ts', service: 's3', operation: 'GetObject', action: 'GetObject', bucket: resources.bucketName, keyPrefix: 'sealed/' })).toHaveLength(2);
    expect(denials({ function: 'functions/api/sign.ts', service: 'ses', operation: 'SendEmail', action: 'SendEmail', from: 'someone-else@example.com' })).toHaveLength(2);
  });
});
