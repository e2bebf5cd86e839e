/**
 * What one stack hands to the others, as SSM parameters: the producer writes `/<prefix>/<key>`, each consumer reads it
 * at deploy through a CloudFormation parameter of type `AWS::SSM::Parameter::Value<String>`. CloudFormation resolves
 * such a parameter at every deploy, and the CDK CLI never skips a stack that has one ("some parameters come from SSM"),
 * so a replaced resource (a secret with a new ARN, say) reaches every consumer on the next `cdk deploy --all`. Unlike
 * an export (a strong reference) nothing pins the producer; unlike Fn::GetStackOutput (a weak one) the consumer is
 * always brought up to date. The order is stated with stack dependencies (infra/stacks/service.ts).
 */
import { Stack } from 'aws-cdk-lib';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { RESOURCE_KEYS, type ResourceKey, type ServiceResources, type SignInSettings } from '../stacks/environment.ts';

/**
 * The resources functions use, and what only stacks need: the HTTP API the api stack adds its routes to, the alarm
 * topic its alarms notify, the seal key's id (which names the imported certificate chain's parameter).
 */
export type HandoffKey = ResourceKey | 'apiId' | 'alarmTopicArn' | 'sealKeyId' | SignInKey;

/** The console's user pool, as the routes are told of it (SignInSettings). */
export const SIGN_IN_KEYS = ['userPoolId', 'consoleClientId', 'signInIssuer', 'signInLogoutUrl'] as const;
export type SignInKey = (typeof SIGN_IN_KEYS)[number];

/** Every handoff key. */
export const HANDOFF_KEYS: readonly HandoffKey[] = [...RESOURCE_KEYS, 'apiId', 'alarmTopicArn', 'sealKeyId', ...SIGN_IN_KEYS];

/** The routes' SignInSettings, read from the web stack's handoff. */
export function signInOf(scope: Construct, prefix: string): SignInSettings {
  const issuer = read(scope, prefix, 'signInIssuer');
  return {
    issuer, clientId: read(scope, prefix, 'consoleClientId'), jwksUrl: `${issuer}/.well-known/jwks.json`, audience: null,
    logoutUrl: read(scope, prefix, 'signInLogoutUrl'), userPoolId: read(scope, prefix, 'userPoolId'),
  };
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** `sealCertificatePem` -> `/Esign/seal-certificate-pem`. */
export const handoffName = (prefix: string, key: HandoffKey) => `/${prefix}/${kebab(key)}`;

/** Writes each value to its parameter, in `stack`. */
export function publish(stack: Stack, prefix: string, values: Partial<Record<HandoffKey, string>>): void {
  for (const [key, value] of Object.entries(values) as [HandoffKey, string][]) {
    new StringParameter(stack, `Handoff-${key}`, {
      parameterName: handoffName(prefix, key),
      stringValue: value,
      description: `${key} of ${stack.stackName}, read by the other stacks at deploy`,
    });
  }
}

/** The value of a handed-off parameter, read when `scope`'s stack deploys. */
export function read(scope: Construct, prefix: string, key: HandoffKey): string {
  return StringParameter.valueForStringParameter(Stack.of(scope), handoffName(prefix, key));
}

/**
 * The resources as `scope`'s stack sees them: `own` as given (its own resources), every other one read from its
 * handoff parameter on first use, so a stack declares a parameter only for what its functions use.
 */
export function resourcesOf(scope: Construct, prefix: string, own: Partial<ServiceResources> = {}): ServiceResources {
  const resources = { ...own } as ServiceResources;
  for (const key of RESOURCE_KEYS) {
    if (key in own) continue;
    Object.defineProperty(resources, key, { enumerable: true, get: () => read(scope, prefix, key) });
  }
  return resources;
}
