/**
 * The webhook deliveries, as OpenAPI 3.1 `webhooks`: one POST per event name a subscription may list, each with the
 * one body every event has (shared/webhooks/webhooks.ts `eventPayload`: the flat fields and the wrapped `data`).
 */
import { ENVELOPE_STATUSES, SIGNER_STATUSES } from '#shared/kernel/model.ts';
import { WEBHOOK_EVENTS, type WebhookEventName } from '#shared/notices/outbox.ts';
import type { SchemaObject } from './components.ts';
import { EXAMPLE_IDS } from './examples.ts';

const WHEN: Record<WebhookEventName, string> = {
  'envelope.created': 'An envelope was created.',
  'envelope.sent': 'An envelope was sent: its first routing group is invited.',
  'envelope.completed': 'Every signer has signed and the sealed PDF is stored: `documentUrl` downloads it (`kind=sealed`, with a bearer token).',
  'envelope.declined': 'A signer declined: the envelope has ended.',
  'envelope.voided': 'The sender voided the envelope.',
  'envelope.expired': 'The envelope\'s deadline passed before every signer signed.',
  'signer.viewed': 'A signer opened their signing link for the first time (`data.signerId`).',
  'signer.signed': 'A signer signed (`data.signerId`); the envelope may still wait for others.',
  'signer.declined': 'A signer declined (`data.signerId`).',
  'signer.otp_failed': 'A signer entered a wrong one-time code three times and the code was burnt (`data.signerId`).',
  'signer.reassigned': 'Someone else took a signer\'s place (`data.signerId`: the same slot, with the new name and email); the old links no longer work.',
};

const dateTime = (description: string): SchemaObject => ({ type: ['string', 'null'], format: 'date-time', description });

export const WEBHOOK_EVENT_SCHEMA: SchemaObject = {
  type: 'object',
  description:
    'The body of every webhook delivery: the flat fields and the same facts wrapped in `data` (both published shapes). ' +
    '`id` is stable across redeliveries: deduplicate on it. Verify `X-Service-Signature` before trusting the body.',
  required: ['id', 'event', 'createdAt', 'envelopeId', 'completedAt', 'documentUrl', 'data'],
  properties: {
    id: { type: 'string', description: 'Event id; the same on every redelivery' },
    event: { type: 'string', enum: [...WEBHOOK_EVENTS], description: 'Event name' },
    createdAt: { type: 'string', format: 'date-time', description: 'When the change happened' },
    envelopeId: { type: 'string', format: 'uuid' },
    completedAt: dateTime('When the envelope completed; null before'),
    documentUrl: { type: 'string', format: 'uri', description: 'The envelope\'s document endpoint (`kind=sealed` once completed, else `kind=original`); fetch it with a bearer token' },
    data: {
      type: 'object',
      required: ['envelopeId', 'tenantId', 'subject', 'status', 'completedAt', 'documentUrl', 'signerId', 'signers'],
      properties: {
        envelopeId: { type: 'string', format: 'uuid' },
        tenantId: { type: 'string' },
        subject: { type: ['string', 'null'] },
        status: { type: 'string', enum: [...ENVELOPE_STATUSES], description: 'The envelope\'s status when the delivery was built' },
        completedAt: dateTime('When the envelope completed; null before'),
        documentUrl: { type: 'string', format: 'uri' },
        signerId: { type: ['string', 'null'], description: 'The signer a `signer.*` event is about; null for envelope events' },
        signers: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'name', 'email', 'status', 'signedAt'],
            properties: {
              id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, email: { type: 'string', format: 'email' },
              status: { type: 'string', enum: [...SIGNER_STATUSES] }, signedAt: dateTime('When the signer signed; null before'),
            },
          },
        },
      },
    },
  },
  examples: [{
    id: '0194a3b1-0000-7000-8000-000000000001', event: 'envelope.completed', createdAt: '2026-01-02T10:00:05.000Z', envelopeId: EXAMPLE_IDS.envelope,
    completedAt: '2026-01-02T10:00:05.000Z', documentUrl: `https://api.example.com/v1/envelopes/${EXAMPLE_IDS.envelope}/document?kind=sealed`,
    data: {
      envelopeId: EXAMPLE_IDS.envelope, tenantId: 'acme', subject: 'Sample NDA', status: 'completed', completedAt: '2026-01-02T10:00:05.000Z',
      documentUrl: `https://api.example.com/v1/envelopes/${EXAMPLE_IDS.envelope}/document?kind=sealed`, signerId: null,
      signers: [{ id: EXAMPLE_IDS.signer, name: 'Ana Silva', email: 'ana@example.com', status: 'signed', signedAt: '2026-01-02T09:59:58.000Z' }],
    },
  }],
};

const SIGNATURE_HEADER = {
  name: 'X-Service-Signature', in: 'header', required: true,
  description:
    '`sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the webhook\'s `secret` (else the application\'s client secret). ' +
    'Compare it in constant time and reject a mismatch.',
  schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
};

const TIMESTAMP_HEADER = {
  name: 'X-Service-Timestamp', in: 'header', required: true,
  description: 'When this attempt was signed, in unix seconds: the `t=` of `X-Service-Signature-V2`.',
  schema: { type: 'string', pattern: '^[0-9]+$' },
};

const SIGNATURE_V2_HEADER = {
  name: 'X-Service-Signature-V2', in: 'header', required: true,
  description:
    '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed like `X-Service-Signature`. Accept the delivery when one ' +
    '`v1=` matches in constant time and `t` is within your tolerance (300 s is usual) of your clock: an old delivery replayed is ' +
    'refused. After `POST /v1/webhooks/{id}/rotate-secret` both secrets sign until the old one expires, so the header carries two ' +
    '`v1=` values; `X-Service-Signature` is signed with the newest secret only.',
  schema: { type: 'string', pattern: '^t=[0-9]+(,v1=[0-9a-f]{64})+$' },
};

const DELIVERY_RULES =
  'Answer with a 2xx status within 10 seconds; anything else (or no answer) is retried: schedule B (default) after 1 min, 10 min, ' +
  '1 h and 6 h, schedule A after 30 s, 2 min, 10 min and 1 h; after five attempts the delivery is `failed` and can be resent from ' +
  '`POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend`. Redirects are not followed.';

/** The `webhooks` map: one POST for each event name. */
export function webhookOperations(): Record<string, { post: object }> {
  return Object.fromEntries(WEBHOOK_EVENTS.map((event) => [event, {
    post: {
      operationId: `webhook_${event.replace('.', '_')}`,
      summary: `${event}: ${WHEN[event]}`,
      description: `${WHEN[event]} ${DELIVERY_RULES}`,
      tags: ['Webhooks'],
      parameters: [SIGNATURE_HEADER, TIMESTAMP_HEADER, SIGNATURE_V2_HEADER],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
      responses: { '2XX': { description: 'Received; any 2xx status ends the retries' } },
    },
  }]));
}
