import { hashClientSecret, newClientId, newClientSecret, verifyClientSecret } from './client-secrets.ts';
import { ACCESS_TOKEN_SECONDS, issueAccessToken } from '../kernel/tokens.ts';
import type { Config } from '../config.ts';
import { Forbidden, Unauthorized } from '../kernel/errors.ts';
import type { Application, ApplicationRepository, TeamRepository } from '#shared/ports/repositories.ts';
import type { Clock, Ids, SecretBox } from '#shared/ports/services.ts';

export interface ApplicationDeps {
  config: Pick<Config, 'jwtSecret'>;
  clock: Clock;
  ids: Ids;
  applications: ApplicationRepository;
  secrets: SecretBox;
}

export interface NewApplication {
  name: string;
  clientId?: string;
  clientSecret?: string;
  plan?: string;
  /** Envelopes per calendar month; null (the default) for no limit. */
  envelopesLimit?: number | null;
  overageAllowed?: boolean;
  /** Accept PDFs with JavaScript or launch actions (default false: refused at upload). */
  allowActiveContent?: boolean;
}

/** Creates an application and returns its credentials; the secret is shown here once and stored only hashed and sealed. */
export async function createApplication(deps: ApplicationDeps, input: NewApplication) {
  const clientSecret = input.clientSecret ?? newClientSecret();
  const app: Application = {
    appId: deps.ids.next(),
    name: input.name,
    clientId: input.clientId ?? newClientId(),
    secretHash: await hashClientSecret(clientSecret),
    secretSealed: await deps.secrets.seal(clientSecret),
    plan: input.plan ?? 'standard',
    envelopesLimit: input.envelopesLimit ?? null,
    overageAllowed: input.overageAllowed ?? true,
    ...(input.allowActiveContent ? { allowActiveContent: true } : {}),
    suspended: false,
    createdAt: deps.clock.now().toISOString(),
  };
  await deps.applications.create(app);
  return { appId: app.appId, name: app.name, clientId: app.clientId, clientSecret };
}

/** The local dev application: created on first start, its secret reset to the configured one on later starts. */
export async function ensureApplication(deps: ApplicationDeps, input: Required<Pick<NewApplication, 'name' | 'clientId' | 'clientSecret'>>) {
  const existing = await deps.applications.getByClientId(input.clientId);
  if (!existing) return createApplication(deps, input);
  if (!(await verifyClientSecret(input.clientSecret, existing.secretHash))) {
    await deps.applications.updateSecret(existing.appId, await hashClientSecret(input.clientSecret), await deps.secrets.seal(input.clientSecret));
  }
  return { appId: existing.appId, name: existing.name, clientId: existing.clientId, clientSecret: input.clientSecret };
}

const MAX_CLIENT_ID_LENGTH = 256;

/** OAuth 2.0 client credentials (decision 29): a bearer JWT for one hour. */
export async function issueToken(deps: Pick<ApplicationDeps, 'config' | 'clock' | 'applications'> & { team: Pick<TeamRepository, 'client'> }, clientId: string, clientSecret: string) {
  // A client id longer than any we issue is unknown, never a lookup (it would not fit the index key; decision 7).
  const known = clientId.length <= MAX_CLIENT_ID_LENGTH;
  // A further client (created in the console) has its own secret; else the application's own client.
  const further = known ? await deps.team.client(clientId) : undefined;
  const app = further ? await deps.applications.get(further.appId) : known ? await deps.applications.getByClientId(clientId) : undefined;
  const valid = await verifyClientSecret(clientSecret, further?.secretHash ?? app?.secretHash);
  if (!app || !valid) throw new Unauthorized('Invalid client credentials');
  if (app.suspended) throw new Forbidden('This application is suspended');
  const accessToken = await issueAccessToken(deps.config.jwtSecret, { appId: app.appId, clientId: further?.clientId ?? app.clientId }, deps.clock.now());
  return { access_token: accessToken, token_type: 'Bearer' as const, expires_in: ACCESS_TOKEN_SECONDS };
}
