/**
 * The console's users and API clients. A user is invited by email: their account is made at the identity provider
 * (a Cognito user pool; locally the local OpenID provider) with a temporary password, recorded in the application
 * with a role, and told by email how to sign in. API clients are further client-credentials pairs of the application,
 * their secret shown once and stored only hashed; a removed client's tokens stop at the next request.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import { Conflict, NotFound } from '../kernel/errors.ts';
import type { BearerPrincipal } from '../kernel/tokens.ts';
import type { ApiClient, ApplicationRepository, ConsoleRole, ConsoleUser, TeamRepository } from '#shared/ports/repositories.ts';
import type { Clock, IdentityAdmin, Mailer } from '#shared/ports/services.ts';
import { hashClientSecret, newClientId, newClientSecret } from './client-secrets.ts';
import { DEFAULT_LOCALE, type Locale } from '../i18n/locales.ts';

export interface InviteDeps {
  config: Pick<Config, 'signingUrl'>;
  clock: Clock;
  team: TeamRepository;
  applications: Pick<ApplicationRepository, 'get'>;
  identities: IdentityAdmin;
  mailer: Mailer;
}

/** Long and mixed enough for any user pool password policy (upper, lower, digit, symbol). */
const temporaryPassword = () => `${randomBytes(12).toString('base64url')}-Aa7`;

export async function inviteUser(deps: InviteDeps, appId: string, invited: { email: string; name: string | null; role: ConsoleRole; locale?: Locale | undefined }): Promise<ConsoleUser> {
  // One account per address, whatever its case: the provider compares emails case-insensitively too.
  const { locale = DEFAULT_LOCALE, ...rest } = invited;
  const input = { ...rest, email: invited.email.toLowerCase() };
  const password = temporaryPassword();
  const { userId } = await deps.identities.createUser({ email: input.email, name: input.name, temporaryPassword: password });
  const user: ConsoleUser = { appId, userId, email: input.email, name: input.name, role: input.role, createdAt: deps.clock.now().toISOString() };
  try {
    await deps.team.addUser(user);
  } catch (error) {
    // No account without its user record: it could sign in to nothing.
    await deps.identities.deleteUser(input.email);
    throw error;
  }
  const app = await deps.applications.get(appId);
  // The message's escaping loads the catalogues' module: only the invitation needs it, not the other team routes.
  const { userInvitationEmail } = await import('./user-invitation-email.ts');
  await deps.mailer.send({ to: input.email, ...userInvitationEmail({ name: input.name, applicationName: app?.name ?? 'the e-signature service', consoleUrl: `${deps.config.signingUrl}/app/`, email: input.email, temporaryPassword: password, locale }) });
  return user;
}

async function userOf(team: Pick<TeamRepository, 'userBySubject'>, appId: string, userId: string): Promise<ConsoleUser> {
  const user = await team.userBySubject(userId);
  if (user?.appId !== appId) throw new NotFound('No such user in this application');
  return user;
}

/** Nobody changes their own role or removes themselves: an application always keeps the administrator acting now. */
function notSelf(principal: BearerPrincipal, userId: string, what: string): void {
  if (principal.user?.userId === userId) throw new Conflict(`You cannot ${what} yourself; another administrator can`);
}

export async function changeRole(deps: { team: TeamRepository }, principal: BearerPrincipal, userId: string, role: ConsoleRole): Promise<ConsoleUser> {
  notSelf(principal, userId, 'change the role of');
  const user = { ...(await userOf(deps.team, principal.appId, userId)), role };
  await deps.team.saveUser(user);
  return user;
}

export async function removeUser(deps: { team: TeamRepository; identities: IdentityAdmin }, principal: BearerPrincipal, userId: string): Promise<void> {
  notSelf(principal, userId, 'remove');
  const user = await userOf(deps.team, principal.appId, userId);
  // The record first: from then on their tokens are refused, whatever becomes of the account.
  if (!(await deps.team.removeUser(principal.appId, userId))) throw new NotFound('No such user in this application');
  await deps.identities.deleteUser(user.email);
}

export const userView = ({ userId, email, name, role, createdAt }: ConsoleUser) => ({ userId, email, name, role, createdAt });

export async function listClients(deps: { team: TeamRepository; applications: Pick<ApplicationRepository, 'get'> }, appId: string) {
  const app = await deps.applications.get(appId);
  const own = app ? [{ clientId: app.clientId, name: app.name, createdAt: app.createdAt, primary: true }] : [];
  return [...own, ...(await deps.team.clients(appId)).map(({ clientId, name, createdAt }) => ({ clientId, name, createdAt, primary: false }))];
}

export async function createClient(deps: { team: TeamRepository; clock: Clock }, appId: string, name: string) {
  const clientSecret = newClientSecret();
  const client: ApiClient = { appId, clientId: newClientId(), name, secretHash: await hashClientSecret(clientSecret), createdAt: deps.clock.now().toISOString() };
  await deps.team.addClient(client);
  return { clientId: client.clientId, clientSecret, name, createdAt: client.createdAt };
}

export async function revokeClient(deps: { team: TeamRepository; applications: Pick<ApplicationRepository, 'get'> }, appId: string, clientId: string): Promise<void> {
  const app = await deps.applications.get(appId);
  if (app?.clientId === clientId) throw new Conflict("The application's own client cannot be revoked: its secret also signs webhooks");
  if (!(await deps.team.removeClient(appId, clientId))) throw new NotFound('No such API client in this application');
}
