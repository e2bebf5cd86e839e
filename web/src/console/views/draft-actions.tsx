/**
 * A draft's next steps: place fields in the editor (its full mode, which comes back here), or a signature box for each
 * signer on the last page where the editor is not available, then send.
 */
import { call } from '../console-api.ts';
import { consoleCatalogue, t } from '../console-i18n.ts';
import { Problem, useAction } from '../console-kit.tsx';
import type { Envelope } from '../console-model.ts';

/** Opens the editor on `path` (an envelope's or a template's authoring-url route); it returns to `back`. */
export async function openEditor(path: string, back: string): Promise<boolean> {
  const returnUrl = new URL(back, window.location.origin).href;
  const issued = await call<{ url: string } | null>('POST', path, { json: { returnUrl, mode: 'full', locale: consoleCatalogue() }, optional: true });
  if (!issued) return false;
  window.location.assign(issued.url);
  return true;
}

/** `onChanged` gets what was done, for the envelope's screen to say (this panel goes once the envelope is sent). */
export function DraftActions(props: { envelope: Envelope; onChanged: (message: string) => void }) {
  const { envelope } = props;
  const action = useAction();
  const base = `/v1/envelopes/${envelope.id}`;
  const unplaced = envelope.signers.filter((s) => !envelope.fields.some((f) => f.signerId === s.id));
  const lastPage = envelope.documents.filter((d) => d.kind === 'original').at(-1);
  const editor = () => {
    void action.run(async () => {
      if (!await openEditor(`${base}/authoring-url`, `/app/envelopes/${envelope.id}`)) throw new Error('editor');
      return null;
    });
  };
  const placeBoxes = () => {
    void action.run(async () => {
      for (const [i, signer] of unplaced.entries()) {
        await call('POST', `${base}/fields`, { json: { signerId: signer.id, documentId: lastPage?.id, type: 'signature', page: lastPage?.pageCount ?? 1, x: 72, y: 72 + i * 56, w: 180, h: 44 } });
      }
      props.onChanged(t('draft.placed'));
      return null;
    });
  };
  const send = () => {
    void action.run(async () => {
      await call('POST', `${base}/send`);
      props.onChanged(t('draft.sent'));
      return null;
    });
  };
  return (
    <section class="panel notice-info" aria-labelledby="draft-heading">
      <h2 id="draft-heading">{t('draft.heading')}</h2>
      <p>{unplaced.length > 0 ? t('draft.unplaced', { count: unplaced.length }) : t('draft.ready')}</p>
      {action.error instanceof Error && action.error.message === 'editor' ? <div class="notice notice-info"><p>{t('draft.noEditor')}</p></div> : <Problem error={action.error} />}
      <div class="actions">
        <button type="button" class="button button-secondary" disabled={action.busy} onClick={editor}>{t('draft.editor')}</button>
        {unplaced.length > 0 ? <button type="button" class="button button-secondary" disabled={action.busy} onClick={placeBoxes}>{t('draft.placeBoxes')}</button> : null}
        <button type="button" class="button button-primary" disabled={action.busy || unplaced.length > 0} onClick={send}>{t('draft.send')}</button>
      </div>
    </section>
  );
}
