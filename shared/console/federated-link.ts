/**
 * Federated console users (docs/sign-in.md): someone who signs in through the customer's own identity provider gets a
 * new user in the pool, with a `sub` no application knows. The pool's pre-sign-up trigger links them, by email, to the
 * user an administrator invited, so the provider's sign-in acts as that user (their `sub`: their application and
 * role). Nobody without an invitation gets in this way either: there is no self sign-up (decision 50).
 */
import type { PreSignUpTriggerEvent } from 'aws-lambda';

/** The pool, as the trigger needs it (shared/adapters/aws/cognito-identity-admin.ts). */
export interface PoolDirectory {
  /** The username of the pool's own (invited, not federated) user with this email, if any. */
  invitedUsername(poolId: string, email: string): Promise<string | null>;
  /** From now on `subject` of `provider` signs in as `username`. */
  link(poolId: string, username: string, provider: string, subject: string): Promise<void>;
}

/** Thrown, it ends the sign-up: Cognito shows the provider's user its message. */
export class SignUpRefused extends Error {}

/** `Okta_00u1ab...` is the Okta provider's user `00u1ab...`; Cognito may write the provider's name in another case. */
function providerUser(userName: string, providers: readonly string[]): { provider: string; subject: string } {
  const cut = userName.indexOf('_');
  const provider = cut > 0 ? providers.find((p) => p.toLowerCase() === userName.slice(0, cut).toLowerCase()) : undefined;
  if (!provider) throw new SignUpRefused(`No identity provider of this pool signs in as ${userName}`);
  return { provider, subject: userName.slice(cut + 1) };
}

export async function linkFederatedUser(pool: PoolDirectory, event: PreSignUpTriggerEvent, providers: readonly string[]): Promise<PreSignUpTriggerEvent> {
  // An invitation (AdminCreateUser) passes here too: nothing to link
  if (event.triggerSource !== 'PreSignUp_ExternalProvider') return event;
  const { provider, subject } = providerUser(event.userName, providers);
  const email = (event.request.userAttributes.email ?? '').trim().toLowerCase();
  if (!email) throw new SignUpRefused('The identity provider sent no email address');
  const username = await pool.invitedUsername(event.userPoolId, email);
  if (!username) throw new SignUpRefused(`${email} has not been invited to the console: ask one of its administrators`);
  await pool.link(event.userPoolId, username, provider, subject);
  return event;
}
