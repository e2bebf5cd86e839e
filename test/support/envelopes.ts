import { call, type ApiResponse } from './api.ts';
import { makePdf } from './pdfs.ts';

export type Json = Record<string, unknown>;
export interface EnvelopeBody {
  id: string;
  status: string;
  tenantId: string;
  subject: string | null;
  documentHashOriginal: string | null;
  documentHashFinal: string | null;
  expiresAt: string;
  signers: { id: string; email: string; status: string; routingOrder: number; signingUrl?: string | null }[];
  fields: { id: string; signerId: string; documentId: string | null; origin: string; page: number; x: number; y: number; label: string | null; value: string | null; readOnly: boolean; required: boolean }[];
  documents: ({ kind: string; retentionUntil: string | null; purgeStatus: string; purge_status: string } & Json)[];
  auditLog?: { event: string; actor: string; detail: Json | null; ip: string | null; userAgent: string | null }[];
}

export const signer = (email: string, routingOrder = 1, extra: Json = {}) => ({ name: email.split('@')[0], email, routingOrder, ...extra });
export const sigField = (signerIndex: number, extra: Json = {}) => ({ signerIndex, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40, ...extra });

/** Variant A: the PDF and a `data` part holding the JSON request. */
export async function createMultipart(token: string, data: Json, pdf?: Uint8Array): Promise<ApiResponse<EnvelopeBody>> {
  const form = new FormData();
  form.append('data', JSON.stringify(data));
  form.append('file', new Blob([pdf ?? (await makePdf({ pages: 2 }))], { type: 'application/pdf' }), 'contract.pdf');
  return call<EnvelopeBody>('POST', '/v1/envelopes', { token, form });
}

/** A draft ready to send: two signers in one group plus one in a second group, a field each. */
export async function readyDraft(token: string, tenantId = 'acme', extra: Json = {}): Promise<EnvelopeBody> {
  const res = await createMultipart(token, {
    tenantId, subject: 'Service agreement',
    signers: [signer('ana@example.com', 1), signer('ben@example.com', 1), signer('cy@example.com', 2)],
    fields: [sigField(0), sigField(1), sigField(2, { page: 2 })],
    ...extra,
  });
  if (res.status !== 201) throw new Error(`create failed: ${String(res.status)} ${JSON.stringify(res.body)}`);
  return res.body;
}
