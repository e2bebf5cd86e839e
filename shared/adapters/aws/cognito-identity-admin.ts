import {
  AdminCreateUserCommand, AdminDeleteUserCommand, AdminLinkProviderForUserCommand, CognitoIdentityProviderClient, ListUsersCommand, UsernameExistsException,
  UserNotFoundException, type CognitoIdentityProviderClientConfig, type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import type { PoolDirectory } from '#shared/console/federated-link.ts';
import { Conflict } from '#shared/kernel/errors.ts';
import type { IdentityAdmin } from '#shared/ports/services.ts';

export const cognitoClient = (config: CognitoIdentityProviderClientConfig) => new CognitoIdentityProviderClient(config);

/**
 * Users of the Cognito user pool (sign-in by email). Cognito's own invitation is suppressed: the service sends its
 * own, with the temporary password it chose, which the user replaces at their first sign-in.
 */
export class CognitoIdentityAdmin implements IdentityAdmin {
  constructor(private readonly client: CognitoIdentityProviderClient, private readonly userPoolId: string) {}

  async createUser(input: { email: string; name: string | null; temporaryPassword: string }): Promise<{ userId: string }> {
    try {
      const { User } = await this.client.send(new AdminCreateUserCommand({
        UserPoolId: this.userPoolId, Username: input.email, TemporaryPassword: input.temporaryPassword, MessageAction: 'SUPPRESS',
        UserAttributes: [{ Name: 'email', Value: input.email }, { Name: 'email_verified', Value: 'true' }, ...(input.name ? [{ Name: 'name', Value: input.name }] : [])],
      }));
      const userId = User?.Attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
      if (!userId) throw new Error('AdminCreateUser answered no sub');
      return { userId };
    } catch (error) {
      if (error instanceof UsernameExistsException) throw new Conflict(`An account with the email ${input.email} exists already`);
      throw error;
    }
  }

  async deleteUser(email: string): Promise<void> {
    try {
      await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.userPoolId, Username: email }));
    } catch (error) {
      if (!(error instanceof UserNotFoundException)) throw error;
    }
  }
}

/** What the pre-sign-up trigger sends Cognito: one lookup by email, one link (a test passes a fake). */
export interface FederationClient {
  send(command: ListUsersCommand | AdminLinkProviderForUserCommand): Promise<{ Users?: UserType[] | undefined }>;
}

/** The pool's users by email, and linking a provider's user to one of them (AdminLinkProviderForUser). */
export class CognitoPoolDirectory implements PoolDirectory {
  constructor(private readonly client: FederationClient) {}

  async invitedUsername(poolId: string, email: string): Promise<string | null> {
    // The filter is a quoted string: an address that would need escaping is not one an administrator invited
    if (/["\\]/.test(email)) return null;
    const { Users = [] } = await this.client.send(new ListUsersCommand({ UserPoolId: poolId, Filter: `email = "${email}"`, Limit: 10 }));
    return Users.find((user) => user.UserStatus !== 'EXTERNAL_PROVIDER' && user.Username)?.Username ?? null;
  }

  async link(poolId: string, username: string, provider: string, subject: string): Promise<void> {
    await this.client.send(new AdminLinkProviderForUserCommand({
      UserPoolId: poolId,
      DestinationUser: { ProviderName: 'Cognito', ProviderAttributeValue: username },
      SourceUser: { ProviderName: provider, ProviderAttributeName: 'Cognito_Subject', ProviderAttributeValue: subject },
    }));
  }
}
