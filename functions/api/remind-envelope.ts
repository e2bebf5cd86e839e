import { remindNow } from '#shared/notices/reminder-actions.ts';
import { envelopeWrite, invites, json, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, NO_ENVELOPE } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { RemindResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/remind', auth: 'bearer', tag: 'Envelopes',
  operationId: 'remindSigners', summary: 'Remind the current routing group now',
  description:
    'Emails (and texts, for `sms_otp` signers) a reminder with their signing link to every signer of the current routing group ' +
    'who has not signed or declined, except embedded signers; each is a `signer.reminded` audit event. ' +
    'At most once an hour per envelope. The next automatic reminder counts `everyDays` from this one.',
  params: IdParams,
  success: { status: 200, description: 'Who was reminded', content: json(RemindResponse) },
  errors: {
    400: 'The envelope is not `sent` or `in_progress`, or nobody is left to remind',
    404: NO_ENVELOPE,
    409: CONCURRENT,
    429: 'The envelope was reminded less than an hour ago (Retry-After says when it may be again)',
  },
  access: { ...envelopeWrite, ...invites },
}, (deps) => async ({ params, principal, meta }) =>
  respond(RemindResponse, await remindNow(deps, principal.appId, params.id, meta)));

export const handler = lambda(definition);
