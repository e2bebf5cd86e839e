/** The use cases of the draft edits (draft-edits.ts): each one transaction, committed with its audit entry. */
import { parseId } from '../kernel/ids.ts';
import { originals, type Field, type RequestMeta, type Signer } from '../kernel/model.ts';
import { mutateEnvelope, type Carriers, type CoreDeps } from '../signing/signing-context.ts';
import { removeField, removeSigner, replaceField, replaceSigner, updateDetails, type DraftDetails, type FieldReplacement } from './draft-edits.ts';
import type { SignerInput } from './envelope.ts';
import { pageReader } from './page-actions.ts';

/** PUT /v1/envelopes/{id}/fields/{fieldId}: the field as replaced. */
export async function replaceEnvelopeField(deps: CoreDeps & Pick<Carriers, 'blobs'>, appId: string, rawId: string, rawFieldId: string, input: FieldReplacement, meta: RequestMeta): Promise<Field> {
  const fieldId = parseId('fld', rawFieldId);
  const read = pageReader(deps);
  const { result } = await mutateEnvelope(deps, appId, rawId, meta, async (envelope, ctx) => {
    // Only the document the field lands on is read: its own, or the one the request names.
    const target = input.documentId ?? envelope.fields.find((f) => f.id === fieldId)?.documentId ?? null;
    const pages = await read(originals(envelope).filter((d) => d.id === target));
    const replaced = replaceField(envelope, fieldId, input, pages, ctx);
    return { change: replaced.change, result: replaced.field };
  });
  return result;
}

export async function removeEnvelopeField(deps: CoreDeps, appId: string, rawId: string, rawFieldId: string, meta: RequestMeta): Promise<void> {
  const fieldId = parseId('fld', rawFieldId);
  await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => ({ change: removeField(envelope, fieldId, ctx), result: null }));
}

export async function replaceEnvelopeSigner(deps: CoreDeps, appId: string, rawId: string, rawSignerId: string, input: SignerInput, meta: RequestMeta): Promise<Signer> {
  const signerId = parseId('sgn', rawSignerId);
  const { result } = await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => {
    const replaced = replaceSigner(envelope, signerId, input, ctx);
    return { change: replaced.change, result: replaced.signer };
  });
  return result;
}

export async function removeEnvelopeSigner(deps: CoreDeps, appId: string, rawId: string, rawSignerId: string, meta: RequestMeta): Promise<void> {
  const signerId = parseId('sgn', rawSignerId);
  await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => ({ change: removeSigner(envelope, signerId, ctx), result: null }));
}

export async function updateEnvelopeDetails(deps: CoreDeps, appId: string, rawId: string, input: DraftDetails, meta: RequestMeta) {
  return (await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => ({ change: updateDetails(envelope, input, ctx), result: null }))).envelope;
}
