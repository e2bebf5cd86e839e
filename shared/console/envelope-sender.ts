/** The sender an envelope names when its create gives none: the signed-in console user who creates it. */
import type { TeamRepository } from '#shared/ports/repositories.ts';
import type { BearerPrincipal } from '../kernel/tokens.ts';
import type { EnvelopeSender } from './branding.ts';

/** Their name as the team records it (else their email), and their email; none for an API client's token. */
export async function callerAsSender(deps: { team: Pick<TeamRepository, 'userBySubject'> }, principal: BearerPrincipal): Promise<EnvelopeSender | undefined> {
  const user = principal.user;
  if (!user) return undefined;
  const record = await deps.team.userBySubject(user.userId);
  const name = record?.name?.trim() ?? '';
  return { name: name.length > 0 ? name : user.email, email: user.email };
}
