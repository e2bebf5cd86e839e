/**
 * The API description's shared vocabulary: what each path parameter is (by name, wherever it appears) and what each
 * tag groups. Everything else about an operation is declared in its function module (shared/http/endpoint.ts).
 */
import type { Tag } from '#shared/http/declaration.ts';

export const PATH_PARAMETERS: Record<string, string> = {
  id: 'Envelope id: a UUID, or the prefixed form `env_<uuid>`; answers always use the plain UUID',
  signerId: 'Signer id: a UUID, or the prefixed form `sgn_<uuid>`; answers always use the plain UUID',
  fieldId: 'Field id: a UUID, or the prefixed form `fld_<uuid>`; answers always use the plain UUID',
  documentId: 'Document id: a UUID, or the prefixed form `doc_<uuid>`; answers always use the plain UUID',
  deliveryId: 'Delivery id: a UUID, or the prefixed form `dlv_<uuid>`; answers always use the plain UUID',
  envelopeId: 'Envelope id: a UUID, or the prefixed form `env_<uuid>`, as the audit certificate prints it',
  sha256: "The SHA-256 of a sealed PDF, 64 hex digits (either case): hashed by whoever holds the file, which is never uploaded",
  uploadId: 'The `uploadId` that the upload-url call before it answered (`POST /v1/envelopes/{id}/document/upload-url` or `POST /v1/signing/{token}/attachments/upload-url`)',
  attachmentId: 'Attachment id: a UUID, or the prefixed form `att_<uuid>`; answers always use the plain UUID',
  tenantId: 'The customer identifier within the application (the `tenantId` of its envelopes)',
  logoId: 'A branding logo\'s id: the SHA-256 of the stored file, 64 lowercase hex digits (the `logo.url` the branding routes answer ends with it)',
  userId: "A console user's `userId` (their `sub` at the OpenID provider), as `GET /v1/console/users` lists it",
  clientId: 'An API client id, as `GET /v1/console/clients` lists it',
  token:
    'The opaque link token: the last path segment of the signer\'s `signingUrl` (`{SIGNING_URL}/sign/{token}`). It is the credential of this call, ' +
    'which takes no bearer header. It is valid until the envelope\'s deadline (at most 30 days) and stops working when a newer link ' +
    'is issued (resend) or once the signer has signed or declined (a link is single-use).',
};

export const WEBHOOK_ID = 'Webhook id: a UUID, or the prefixed form `whk_<uuid>`; answers always use the plain UUID';
export const CONTACT_ID = 'Contact id: a UUID, or the prefixed form `con_<uuid>`; answers always use the plain UUID';

export const TEMPLATE_ID = 'Template id: a UUID, or the prefixed form `tpl_<uuid>`; answers always use the plain UUID';

export const AUTHORING_TOKEN =
  'The opaque authoring ticket: the last path segment of the `url` that `POST /v1/envelopes/{id}/authoring-url` or ' +
  '`POST /v1/templates/{id}/authoring-url` answered. It is the credential of this call, which takes no bearer header; ' +
  'valid 10 minutes until opened, and opened once.';

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
