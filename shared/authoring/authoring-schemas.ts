/** What the authoring routes take and answer. */
import * as v from 'valibot';
import { LOCALES } from '#shared/i18n/locales.ts';
import type { AuthoringUrlInput } from './authoring-actions.ts';
import { timestamp } from '../http/response-primitives.ts';

export const AuthoringUrlRequest = v.object({
  returnUrl: v.optional(v.nullable(v.pipe(
    v.string('must be a URL'), v.maxLength(2048, 'must be at most 2048 characters'),
    v.description('Where the page goes when it is not in a frame: Done goes to `?event=saved`, Send to `?event=sent`'),
  )), null),
  mode: v.optional(v.pipe(
    v.picklist(['fields', 'full'], 'must be fields or full'),
    v.description('`fields`: place, move and change fields only; `full`: also subject, message, signers (a template: its roles), documents, and sending'),
  ), 'fields'),
  locale: v.optional(v.nullable(v.pipe(v.picklist(LOCALES, `must be one of ${LOCALES.join(', ')}`), v.description('The language of the editor; absent: the browser\'s'))), null),
}) satisfies v.GenericSchema<unknown, AuthoringUrlInput>;

export const AuthoringUrlResponse = v.object({
  url: v.pipe(v.string(), v.url(), v.description('The editor: `/author/{token}` on the signing host. Open it in an iframe on one of the application\'s `embedOrigins` (or a browser tab); once')),
  expiresAt: v.pipe(timestamp, v.description('10 minutes after issue, unless opened before; opening the URL spends it')),
});

const session = {
  session: v.pipe(v.string(), v.description('The authoring session: send it as `Authorization: Bearer <session>` to the routes that take one')),
  sessionExpiresAt: v.pipe(timestamp, v.description('60 minutes from now, or 8 hours after the opening if that comes first; renew with `POST /v1/authoring/session`')),
};

export const AuthoringSessionResponse = v.object(session);

export const AuthoringOpenResponse = v.object({
  ...session,
  kind: v.picklist(['envelope', 'template']),
  id: v.pipe(v.string(), v.description('The envelope or template the session may touch')),
  mode: v.picklist(['fields', 'full']),
  locale: v.pipe(v.nullable(v.string()), v.description('The language the URL asked for, or null')),
  returnUrl: v.pipe(v.nullable(v.string()), v.description('Where the page goes when it is not framed')),
  embedOrigins: v.pipe(v.array(v.string()), v.description('The origins the page may post its events to')),
});
