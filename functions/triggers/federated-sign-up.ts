/**
 * The console user pool's pre-sign-up trigger (infra/constructs/console-sign-in.ts): links a user signing in through
 * the customer's identity provider to the user invited with the same email (shared/console/federated-link.ts).
 */
import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { CognitoPoolDirectory, cognitoClient } from '#shared/adapters/aws/cognito-identity-admin.ts';
import { linkFederatedUser } from '#shared/console/federated-link.ts';

const pool = new CognitoPoolDirectory(cognitoClient({}));
/** The provider names the pool federates, as CDK names them (IDENTITY_PROVIDERS, a JSON list). */
const providers = JSON.parse(process.env.IDENTITY_PROVIDERS ?? '[]') as string[];

export const handler = (event: PreSignUpTriggerEvent) => linkFederatedUser(pool, event, providers);
