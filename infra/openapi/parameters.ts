/**
 * The API description's shared vocabulary: what each path parameter is (by name, wherever it appears) and what each
 * tag groups. Everything else about an operation is declared in its function module (shared/http/endpoint.ts).
 */
import type { Tag } from '#shared/http/declaration.ts';

export const PATH_PARAMETERS: Record<string, string> = {
  id: 'Envelope id: a UUID, or the prefixed form `env_<uuid>`; answers always use the plain UUID',
  signerId: 'Signer id: a UUID, or the prefixed form `sgn_<uuid>`; answers always use the plain UUID',
  documentId: 'Document id: a UUID, or the prefixed form `doc_<uuid>`; answers always use the plain UUID',
  deliveryId: 'Delivery id: a UUID, or the prefixed form `dlv_<uuid>`; answers always use the plain UUID',
  envelopeId: 'Envelope id: a UUID, or the prefixed form `env_<uuid>`, as the audit certificate prints it',
  sha256: "The SHA-256 of a sealed PDF, 64 hex digits (either case): hashed by whoever holds the file, which is never uploaded",
  uploadId: 'The `uploadId` that the upload-url call before it answered (`POST /v1/envelopes/{id}/document/upload-url` or `POST /v1/signing/{token}/attachments/upload-url`)',
  attachmentId: 'Attachment id: a UUID, or the prefixed form `att_<uuid>`; answers always use the plain UUID',
  tenantId: 'The customer identifier within the application (the `tenantId` of its envelopes)',
  token:
    'The opaque link token: the last path segment of the signer\'s `signingUrl` (`{SIGNING_URL}/sign/{token}`). It is the credential of this call, ' +
    'which takes no bearer header. It is valid until the envelope\'s deadline (at most 30 days) and stops working when a newer link ' +
    'is issued (resend) or once the signer has signed or declined (a link is single-use).',
};

export const WEBHOOK_ID = 'Webhook id: a UUID, or the prefixed form `whk_<uuid>`; answers always use the plain UUID';
export const CONTACT_ID = 'Contact id: a UUID, or the prefixed form `con_<uuid>`; answers always use the plain UUID';

export const DOWNLOAD_TOKEN =
  'The opaque download-portal token: the last path segment of the link in the completion email. It is the credential of this call, ' +
  'which takes no bearer header, and stays valid until the sealed PDF is deleted at the end of its retention period.';

export const TAGS: Record<Tag, string> = {
  Auth: 'OAuth 2.0 client credentials',
  Envelopes: 'Envelopes, their signers, fields, documents and audit trail',
  Console: 'The self-serve console: tenant settings, saved contacts and the usage summary',
  Webhooks: 'Event subscriptions, signed deliveries with retries, and the failed-deliveries console',
  Signing: 'The signer-facing steps behind a signing link: context, one-time code, consent, then sign or decline; and the download portal for the sealed copy. No bearer header: the link token in the path is the credential.',
  Templates: 'Reusable envelope blueprints and bulk send',
  Meta: 'About the API itself',
};
