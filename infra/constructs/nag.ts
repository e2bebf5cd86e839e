/**
 * cdk-nag acknowledgements, each with its reason, recorded through CDK's own Validations (cdk-nag 3).
 * A wildcard finding is named by its resource exactly as cdk-nag flattens it, so only that resource is acknowledged.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';

export function acknowledge(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${rule}`, reason });
}

/**
 * Acknowledges the IAM5 finding for one wildcard resource. `resource` must resolve the same way at validation as
 * now: literals, pseudo parameters and references within `scope`'s own stack (not another stack's exports).
 */
export function acknowledgeWildcard(scope: IConstruct, resource: string, reason: string): void {
  const flat = flattenCfnReference(Stack.of(scope).resolve(resource));
  acknowledge(scope, `IAM5[Resource::${flat}]`, reason);
}

export function acknowledgeWildcardAction(scope: IConstruct, action: string, reason: string): void {
  acknowledge(scope, `IAM5[Action::${action}]`, reason);
}

interface PolicyJson { Statement?: { Effect: string; Action: string | string[]; Resource?: unknown }[] }

/**
 * For roles whose grants a CDK construct writes (BucketDeployment, custom resource providers): acknowledges each
 * wildcard finding of the role's policy, by name, with the construct's reason. Call it once the grants are in.
 */
export function acknowledgeRoleWildcards(role: IConstruct, reason: string): void {
  const policy = role.node.tryFindChild('DefaultPolicy') as { document?: unknown } | undefined;
  const document = (policy?.document ? Stack.of(role).resolve(policy.document) : {}) as PolicyJson;
  for (const statement of document.Statement ?? []) {
    if (statement.Effect !== 'Allow') continue;
    for (const action of [statement.Action].flat()) if (action.includes('*')) acknowledgeWildcardAction(role, action, reason);
    for (const resource of [statement.Resource].flat()) {
      const flat = flattenCfnReference(resource);
      if (flat.includes('*')) acknowledge(role, `IAM5[Resource::${flat}]`, reason);
    }
  }
}
