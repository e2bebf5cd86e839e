import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { expect } from 'vitest';
import { verifyChain } from '#shared/kernel/audit-chain.ts';
import { isTerminal } from '#shared/kernel/model.ts';
import { WEBHOOK_EVENTS } from '#shared/notices/outbox.ts';
import { sendEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { createEnvelope } from '#shared/envelopes/upload-actions.ts';
import { EnvelopeNotReady, finalizeStep, sealStep } from '#shared/sealing/sealing-actions.ts';
import { consentToSign } from '#shared/signing/signing-actions.ts';
import { parseWith } from '#shared/http/validation.ts';
import { CreateEnvelopeRequest } from '#shared/envelopes/envelope-schemas.ts';
import type { Deps } from '#shared/deps.ts';
import type { functionDeps } from './function-deps.ts';
import { makePdf } from './pdfs.ts';

export type TestDeps = Awaited<ReturnType<typeof functionDeps>>;

const META = { ip: '198.51.100.4', userAgent: 'race' };

/** A PNG of `width` x 4 pixels in one grey: distinct images for distinct requests. */
export function pngOf(shade: number, width = 8): string {
  const png = new PNG({ width, height: 4 });
  png.data.fill(shade % 256);
  return PNG.sync.write(png).toString('base64');
}

export interface SentEnvelope {
  id: string;
  /** Each signer's link token, in signer order. */
  tokens: string[];
  /** Each signer's one signature field. */
  fields: string[];
}

/**
 * A sent envelope whose signers (authMethod none, each with one signature field) have consented: every signer can
 * sign at once. `groups` gives each signer's routing order (default: all in group 1).
 */
export async function consentedEnvelope(deps: Deps, appId: string, groups: number[] = [1, 1]): Promise<SentEnvelope> {
  // A webhook on every event, so each event goes on the queue, where the invariants count them.
  await deps.webhooks.put({ id: 'invariants', appId, url: 'https://hooks.example.com/esign', events: [...WEBHOOK_EVENTS], active: true, retrySchedule: 'A', secretSealed: null, createdAt: '2026-01-01T00:00:00.000Z' });
  const request = parseWith(CreateEnvelopeRequest, {
    tenantId: 'races', subject: 'Race',
    signers: groups.map((routingOrder, i) => ({ name: `S${String(i)}`, email: `s${String(i)}@example.com`, routingOrder, authMethod: 'none' })),
    // Two columns of twelve fit a page: up to 24 signers.
    fields: groups.map((_, i) => ({ signerIndex: i, type: 'signature', page: 1, x: 72 + Math.floor(i / 12) * 250, y: 72 + (i % 12) * 50, w: 180, h: 40 })),
  });
  const created = await createEnvelope(deps, appId, request, [{ bytes: await makePdf({ pages: 1 }), filename: 'race.pdf' }], META);
  const { signingUrls } = await sendEnvelopeNow(deps, appId, created.id, null, META);
  const tokens = created.signers.map((s) => signingUrls.get(s.id)?.split('/').at(-1) ?? '');
  await Promise.all(tokens.filter(Boolean).map((token) => retried(() => consentToSign(deps, token, META))));
  return { id: created.id, tokens, fields: created.signers.map((s) => created.fields.find((f) => f.signerId === s.id)?.id ?? '') };
}

/**
 * A request made as a client told to retry makes it: a 409 without a reason (the envelope changed under every attempt
 * the service made) is sent again, up to `attempts` times; any other answer stands.
 */
export async function retried<T>(request: () => Promise<T>, attempts = 10): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      const e = error as { code?: string; reason?: string | null };
      if (e.code !== 'conflict' || e.reason || attempt >= attempts) throw error;
    }
  }
}

/** Settles a promise into what the HTTP layer would answer: its status and error code/reason. */
export async function outcome(promise: Promise<unknown>): Promise<{ ok: boolean; code: string | null; reason: string | null }> {
  try {
    await promise;
    return { ok: true, code: null, reason: null };
  } catch (error) {
    const e = error as { code?: string; reason?: string | null; name?: string };
    if (!e.code) throw error; // not a domain error: the invariant suite must not swallow a crash
    return { ok: false, code: e.code, reason: e.reason ?? null };
  }
}

/** Runs every seal round the workflow port was asked to start (concurrently, as executions would), once each. */
export async function runRequestedSeals(deps: TestDeps, envelopeId: string): Promise<void> {
  const rounds = deps.sent.sealing.filter((id) => id === envelopeId);
  deps.sent.sealing = deps.sent.sealing.filter((id) => id !== envelopeId);
  await Promise.all(rounds.map(async () => {
    try {
      await finalizeStep(deps, await sealStep(deps, envelopeId));
    } catch (error) {
      if (!(error instanceof EnvelopeNotReady)) throw error;
    }
  }));
}

/**
 * What must hold after any interleaving: the chain verifies to the envelope's head; every stored blob is named by a
 * committed record and every named blob exists with its recorded hash; no stage is left open; an envelope that is not
 * completed has no sealed file; a completed one has exactly one, one envelope.completed and one such webhook event.
 */
export async function expectInvariants(deps: TestDeps, envelopeId: string): Promise<void> {
  const envelope = await deps.envelopes.find(envelopeId);
  if (!envelope) throw new Error(`envelope ${envelopeId} is missing`);
  const [audit, submissions] = await Promise.all([deps.envelopes.auditLog(envelopeId), deps.envelopes.submissions(envelopeId)]);
  expect(verifyChain(envelopeId, audit)).toEqual({ valid: true, head: envelope.auditHead });

  // Every stored file by its key, with the hash its record commits to (a text index and page geometry have none of their own).
  const named = new Map<string, string | null>();
  for (const d of envelope.documents) {
    if (d.purgeStatus !== 'active') continue;
    named.set(d.blobKey, d.sha256);
    if (d.textIndexKey) named.set(d.textIndexKey, null);
    if (d.pagesKey) named.set(d.pagesKey, null);
  }
  for (const s of submissions) for (const v of s.values) if (v.kind === 'image') named.set(v.blobKey, v.sha256);
  for (const a of envelope.attachments ?? []) if (a.purgeStatus === 'active') named.set(a.blobKey, a.sha256);
  expect(await deps.storedKeys(envelopeId)).toEqual([...named.keys()].sort());
  for (const [key, sha256] of named) {
    const bytes = await deps.blobs.get(key);
    expect(bytes, key).toBeDefined();
    if (sha256 !== null) expect(bytes && createHash('sha256').update(bytes).digest('hex'), key).toBe(sha256);
  }
  const open = (await deps.envelopes.abandonedStages(new Date(Date.now() + 86_400_000 * 365), 1000)).filter((s) => s.envelopeId === envelopeId);
  expect(open).toEqual([]);

  const sealedDocs = envelope.documents.filter((d) => d.kind === 'sealed');
  const completions = audit.filter((e) => e.event === 'envelope.completed');
  const completedEvents = deps.sent.jobs.filter((j) => j.type === 'webhook.event' && j.event.envelopeId === envelopeId && j.event.event === 'envelope.completed');
  if (envelope.status === 'completed') {
    expect([sealedDocs.length, completions.length, completedEvents.length]).toEqual([1, 1, 1]);
  } else {
    expect([sealedDocs.length, completions.length, completedEvents.length]).toEqual([0, 0, 0]);
  }
  if (isTerminal(envelope.status) && envelope.status !== 'completed') expect(envelope.signers.some((s) => s.status !== 'signed') || envelope.status === 'expired').toBe(true);
}

/** Runs `count` trials, `atOnce` at a time: many interleavings, bounded load on the engines. */
export async function inTrials(count: number, atOnce: number, run: (trial: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < count; start += atOnce) {
    await Promise.all(Array.from({ length: Math.min(atOnce, count - start) }, (_, i) => run(start + i)));
  }
}
