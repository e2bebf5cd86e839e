import type { IncomingMessage } from 'node:http';
import * as v from 'valibot';
import type { SmsOutbox } from '#shared/adapters/local/sms-outbox.ts';
import { embedDemoPage } from './embed-demo.ts';
import type { OffsetClock } from '#shared/adapters/system.ts';
import { ValidationError } from '#shared/kernel/errors.ts';
import { ACCESS_TOKEN_SECONDS } from '#shared/kernel/tokens.ts';
import { createApplication } from '#shared/console/application-actions.ts';
import { ok, type HttpResult } from '#shared/http/responses.ts';
import { parseWith } from '#shared/http/validation.ts';
import type { Deps } from '#shared/deps.ts';
import type { RunningSes } from './engines/ses.ts';
import type { DevHandler } from './server.ts';
import { mailboxPage } from './mailbox.ts';
import type { OutboxMessage } from './outbox-message.ts';
import { runScheduled, type Job } from './scheduler.ts';

export interface DevState {
  /** An operator's deps (every resource bound, calls not recorded), as `npm run app:create` has. */
  deps: Deps;
  clock: OffsetClock;
  sms: SmsOutbox;
  ses: RunningSes;
  jobs: Job[];
  /** Waits until the background queues are empty and idle. */
  drain: () => Promise<unknown>;
  /** The local certificate authority's root (PEM): seals verify against it. */
  pki: { rootPem: string };
  /** The local CSC provider, when seals go through it (SIGNER=csc): seals verify against its root. */
  csc?: { rootPem: string } | undefined;
}

function jsonOf(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw ValidationError.at('body', 'is not valid JSON');
  }
}

/** `"Name" <address>` (the name possibly an RFC 2047 encoded word) as its parts; a bare address has no name. */
export function parseFrom(header: string): { name: string | null; address: string } {
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(header);
  if (!match) return { name: null, address: header.trim() };
  const raw = (match[1] ?? '').replace(/^"(.*)"$/, '$1');
  const name = raw.replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=/gi, (_word, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));
  return { name: name || null, address: match[2] ?? '' };
}

export async function outbox(state: DevState, to: string | null): Promise<OutboxMessage[]> {
  const emails: OutboxMessage[] = (await state.ses.emails()).flatMap((email) =>
    [...email.destination.to, ...email.destination.cc, ...email.destination.bcc].map((recipient) => ({
      id: email.messageId, channel: 'email' as const, to: recipient, from: parseFrom(email.from), replyTo: email.replyTo, subject: email.subject,
      text: email.body.text ?? '', html: email.body.html ?? null,
      attachments: email.attachments.map((a) => ({ filename: a.filename ?? 'attachment', contentType: a.contentType, size: a.size })),
      sentAt: new Date(email.at * 1000).toISOString(),
    })));
  const sms: OutboxMessage[] = state.sms.messages.map((m) => ({
    id: m.id, channel: 'sms', to: m.to, from: null, replyTo: [], subject: null, text: m.text, html: null, attachments: [], sentAt: m.sentAt,
  }));
  const wanted = to?.toLowerCase();
  return [...emails, ...sms]
    .filter((m) => !wanted || m.to.toLowerCase() === wanted)
    .sort((a, b) => a.sentAt.localeCompare(b.sentAt));
}

const ClockRequest = v.object({
  advanceSeconds: v.pipe(v.number('must be a number of seconds'), v.minValue(0, 'must not be negative')),
  /** false moves time without running the due jobs: for checking what happens before a sweep gets there. */
  runJobs: v.optional(v.boolean(), true),
});
const AppRequest = v.object({
  name: v.pipe(v.string('is required'), v.trim(), v.nonEmpty('is required'), v.maxLength(200)),
  /** A plan named in RATE_LIMITS gets its request budget (tests use a small one); the quota fields set the monthly envelope limit. */
  plan: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(50))),
  envelopesLimit: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0)))),
  overageAllowed: v.optional(v.boolean()),
  allowActiveContent: v.optional(v.boolean()),
});

const pem = (body: string): HttpResult => ({ statusCode: 200, headers: { 'content-type': 'application/x-pem-file', 'cache-control': 'no-store' }, body });

/** Dev-only endpoints, mounted by the local server only and never deployed (decision 44). */
export function devHandlers(state: DevState): Record<string, DevHandler> {
  return {
    'GET /_local/outbox': async (_req: IncomingMessage, url: URL): Promise<HttpResult> => ok(await outbox(state, url.searchParams.get('to'))),
    'GET /_local/mailbox': async (_req, url) => mailboxPage(await outbox(state, url.searchParams.get('to')), url.searchParams.get('to')),
    'POST /_local/clock': async (_req, _url, body) => {
      const { advanceSeconds, runJobs } = parseWith(ClockRequest, jsonOf(body));
      const now = state.clock.advance(advanceSeconds);
      await state.drain();
      if (runJobs) await runScheduled(state.jobs, now);
      await state.drain();
      const moved = state.clock.now();
      // Bearer tokens are checked against this clock: say which ones moving it has expired, rather than let a 401 surprise.
      const tokensValidFrom = new Date(moved.getTime() - ACCESS_TOKEN_SECONDS * 1000).toISOString();
      return ok({ now: moved.toISOString(), accessTokens: `tokens issued before ${tokensValidFrom} have expired; request a new one from POST /oauth/token` });
    },
    'GET /_local/embed-demo': (_req, url) => Promise.resolve(embedDemoPage(url)),
    'GET /_local/pki/root.pem': () => Promise.resolve(pem(state.pki.rootPem)),
    ...(state.csc ? { 'GET /_local/csc/root.pem': () => Promise.resolve(pem(state.csc?.rootPem ?? '')) } : {}),
    'POST /_local/apps': async (_req, _url, body) => {
      const app = await createApplication(state.deps, parseWith(AppRequest, jsonOf(body)));
      return ok({ appId: app.appId, clientId: app.clientId, clientSecret: app.clientSecret }, 201);
    },
  };
}
