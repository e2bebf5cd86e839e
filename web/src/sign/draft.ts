/**
 * The signer's entries, kept in this tab's sessionStorage so that a reload, or a phone browser discarding the tab
 * while the signer fetches the code from their mail app, loses nothing. Keyed by envelope and signer (never by the
 * link token, which is a credential), gone when the tab closes, and cleared once the signer signs or declines.
 * Storage may be full or switched off: then the page works as before, without the draft.
 */
import type { FieldType } from '../api-types.ts';
import { SIGNATURE_FONTS, type SignatureFont } from './fonts.ts';
import type { Value } from './values.ts';

export interface Draft {
  font: SignatureFont;
  values: Record<string, Value>;
}

export interface Owner { envelopeId: string; signerId: string }

const keyOf = (owner: Owner) => `esign.draft.${owner.envelopeId}.${owner.signerId}`;

const isString = (v: unknown): v is string => typeof v === 'string';
const isStrokes = (v: unknown) =>
  Array.isArray(v) && v.every((stroke) => Array.isArray(stroke) && stroke.every((p) => Array.isArray(p) && p.length === 2 && p.every(Number.isFinite)));

/** Whether a stored value can go into a field of this type (the stored copy is untrusted input like any other). */
export function fits(type: FieldType, value: unknown): value is Value {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  switch (type) {
    case 'signature':
    case 'initial':
      return (v.kind === 'drawn' && isString(v.png) && isStrokes(v.strokes)) || (v.kind === 'typed' && isString(v.text) && v.text.trim() !== '');
    case 'text':
      return v.kind === 'text' && isString(v.text);
    case 'checkbox':
      return v.kind === 'checkbox' && typeof v.checked === 'boolean';
    case 'date':
    case 'attachment': // the service keeps the signer's files: the signing context lists them
      return false;
  }
}

export function loadDraft(owner: Owner): Draft | null {
  try {
    const raw = window.sessionStorage.getItem(keyOf(owner));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { font?: unknown; values?: unknown };
    const font = SIGNATURE_FONTS.find((f) => f === parsed.font) ?? SIGNATURE_FONTS[0];
    const values = typeof parsed.values === 'object' && parsed.values !== null ? (parsed.values as Record<string, Value>) : {};
    return { font, values };
  } catch {
    return null;
  }
}

export function saveDraft(owner: Owner, draft: Draft): void {
  try {
    window.sessionStorage.setItem(keyOf(owner), JSON.stringify(draft));
  } catch {
    // full or unavailable: the entries stay on the page, only not across a reload
  }
}

/**
 * Whose draft a link is about, from the link token's claims (`env`, `sub`), read without verifying: it only picks
 * which entry to delete when the link turns out finished before a context could be read.
 */
export function ownerOfToken(token: string): Owner | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { env?: unknown; sub?: unknown };
    return typeof claims.env === 'string' && typeof claims.sub === 'string' ? { envelopeId: claims.env, signerId: claims.sub } : null;
  } catch {
    return null;
  }
}

export function clearDraft(owner: Owner): void {
  try {
    window.sessionStorage.removeItem(keyOf(owner));
  } catch {
    // unavailable: nothing was kept
  }
}
