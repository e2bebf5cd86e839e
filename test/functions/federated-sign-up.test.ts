/** The console pool's pre-sign-up trigger against a fake Cognito: a federated user is linked, by email, to the invited one. */
import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { AdminLinkProviderForUserCommand, ListUsersCommand, type UserType } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoPoolDirectory, type FederationClient } from '#shared/adapters/aws/cognito-identity-admin.ts';
import { linkFederatedUser, SignUpRefused } from '#shared/console/federated-link.ts';

const POOL = 'eu-west-1_AbCdEf';
const PROVIDERS = ['Okta', 'AzureAD'];

/** Answers ListUsers with `users` and records every command's name and input. */
function fakeCognito(users: UserType[]) {
  const sent: { command: string; input: unknown }[] = [];
  const client: FederationClient = {
    send: (command) => {
      sent.push({ command: command.constructor.name, input: command.input });
      if (command instanceof ListUsersCommand) return Promise.resolve({ Users: users });
      if (command instanceof AdminLinkProviderForUserCommand) return Promise.resolve({});
      return Promise.reject(new Error('not expected'));
    },
  };
  return { pool: new CognitoPoolDirectory(client), sent };
}

const event = (triggerSource: PreSignUpTriggerEvent['triggerSource'], userName: string, email: string | undefined): PreSignUpTriggerEvent => ({
  version: '1', region: 'eu-west-1', userPoolId: POOL, triggerSource, userName,
  callerContext: { awsSdkVersion: '3', clientId: 'console' },
  request: { userAttributes: email === undefined ? {} : { email } },
  response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
});

const invited: UserType = { Username: '3f1c9a52-0000-4000-8000-00000000ada1', UserStatus: 'FORCE_CHANGE_PASSWORD' };
const federated: UserType = { Username: 'okta_00uold', UserStatus: 'EXTERNAL_PROVIDER' };

describe('the pre-sign-up trigger', () => {
  it('links a provider\'s user to the user invited with that email, naming the provider as the pool does', async () => {
    const { pool, sent } = fakeCognito([federated, invited]);
    const signUp = event('PreSignUp_ExternalProvider', 'okta_00u1ab2CD', ' Ada@Acme.test ');
    expect(await linkFederatedUser(pool, signUp, PROVIDERS)).toBe(signUp);
    expect(sent).toEqual([
      { command: 'ListUsersCommand', input: { UserPoolId: POOL, Filter: 'email = "ada@acme.test"', Limit: 10 } },
      {
        command: 'AdminLinkProviderForUserCommand',
        input: {
          UserPoolId: POOL, DestinationUser: { ProviderName: 'Cognito', ProviderAttributeValue: invited.Username },
          SourceUser: { ProviderName: 'Okta', ProviderAttributeName: 'Cognito_Subject', ProviderAttributeValue: '00u1ab2CD' },
        },
      },
    ]);
  });

  it('refuses someone nobody invited (a federated user of the same email is not an invitation), and links nothing', async () => {
    const { pool, sent } = fakeCognito([federated]);
    await expect(linkFederatedUser(pool, event('PreSignUp_ExternalProvider', 'AzureAD_x1', 'bob@acme.test'), PROVIDERS)).rejects.toThrow(SignUpRefused);
    await expect(linkFederatedUser(pool, event('PreSignUp_ExternalProvider', 'AzureAD_x1', 'bob@acme.test'), PROVIDERS)).rejects.toThrow(/has not been invited/);
    expect(sent.map((s) => s.command)).toEqual(['ListUsersCommand', 'ListUsersCommand']);
  });

  it('refuses a provider the pool does not federate, no email, or an address the filter would have to escape, asking Cognito nothing', async () => {
    const { pool, sent } = fakeCognito([invited]);
    await expect(linkFederatedUser(pool, event('PreSignUp_ExternalProvider', 'Google_123', 'ada@acme.test'), PROVIDERS)).rejects.toThrow(/No identity provider/);
    await expect(linkFederatedUser(pool, event('PreSignUp_ExternalProvider', 'Okta_123', undefined), PROVIDERS)).rejects.toThrow(/no email/);
    expect(sent).toEqual([]);
    await expect(linkFederatedUser(pool, event('PreSignUp_ExternalProvider', 'Okta_123', 'a"b@acme.test'), PROVIDERS)).rejects.toThrow(/not been invited/);
    expect(sent).toEqual([]);
  });

  it('lets an invitation (AdminCreateUser) through untouched', async () => {
    const { pool, sent } = fakeCognito([]);
    const invitation = event('PreSignUp_AdminCreateUser', invited.Username ?? '', 'ada@acme.test');
    expect(await linkFederatedUser(pool, invitation, PROVIDERS)).toBe(invitation);
    expect(sent).toEqual([]);
  });
});
