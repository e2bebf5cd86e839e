/** The API's shapes the console reads (the published responses, only the members it uses). */
import type { PageBranding } from '../api-types.ts';

/** Who is signed in (GET /v1/console/me), with the application's branding for the header. */
export interface Me { email: string | null; name: string | null; role: 'admin' | 'sender'; appId: string; applicationName: string; branding?: PageBranding | null }

export const ENVELOPE_STATUSES = ['draft', 'sent', 'in_progress', 'completed', 'declined', 'voided', 'expired'] as const;
export type EnvelopeStatus = (typeof ENVELOPE_STATUSES)[number];

export interface Signer {
  id: string; name: string; email: string; routingOrder: number; status: 'pending' | 'sent' | 'viewed' | 'signed' | 'declined';
  signedAt: string | null; declinedAt: string | null; embedded: boolean;
}
export interface DocumentInfo { id: string; kind: 'original' | 'sealed'; name: string; order: number; pageCount: number; sizeBytes: number; sourceDocumentId: string | null }
export interface AuditEvent { id: string; seq: number; event: string; timestamp: string; actor: string; detail: Record<string, unknown> | null }
export interface Envelope {
  id: string; tenantId: string; status: EnvelopeStatus; subject: string | null; createdAt: string; sentAt: string | null; completedAt: string | null;
  voidedAt: string | null; expiresAt: string; signers: Signer[]; documents: DocumentInfo[]; fields: { id: string; signerId: string }[];
  auditLog?: AuditEvent[]; templateId?: string;
}
export interface Page<T> { data: T[]; total: number; page: number; pageSize: number }

export interface Template {
  id: string; tenantId: string; name: string; subject: string | null; createdAt: string;
  roles: { role: string; routingOrder: number }[]; fields: { id: string; role: string; label: string | null }[]; documents: { id: string; name: string }[];
}

/** The tenant the lists show: the last one used in this browser, else "default". */
const TENANT = 'esign.console.tenant';
export function rememberedTenant(): string {
  try {
    return localStorage.getItem(TENANT) ?? 'default';
  } catch {
    return 'default';
  }
}
export function rememberTenant(tenant: string): void {
  try {
    localStorage.setItem(TENANT, tenant);
  } catch { /* storage blocked */ }
}
