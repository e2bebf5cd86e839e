/**
 * Finish (decision 16): required fields first, then the sign request with an Idempotency-Key, so
 * Finish again after a lost answer is answered from the first request: the done screen, not "already signed".
 */
import { api, asApiError, idempotencyKeys, signingPath } from '../../api.ts';
import type { SignAnswer } from '../../api-types.ts';
import { signingRoute } from '../../problems.ts';
import { documentOf, type Page, type SubmitState } from '../state.ts';
import { missing, submission } from './model.ts';

/** Which field an error path (`fields[2].textValue`) is about, by the index in the request. */
function refusal(message: string, errors: Record<string, string[]>, fieldIds: readonly string[]): SubmitState {
  const byField: Record<string, string[]> = {};
  const other: string[] = [];
  for (const [path, messages] of Object.entries(errors)) {
    const index = /^fields\[(\d+)\]/.exec(path)?.[1];
    const id = index === undefined ? undefined : fieldIds[Number(index)];
    if (id) byField[id] = [...(byField[id] ?? []), ...messages];
    else other.push(...messages);
  }
  return { status: 'refused', message, byField, other };
}

export function createSubmit(page: Page, goTo: (fieldId: string) => void): () => Promise<void> {
  const signKey = idempotencyKeys();
  const { store } = page;
  const setSubmit = (submit: SubmitState) => { store.update((s) => { documentOf(s).submit = submit; }); };

  return async () => {
    const doc = documentOf(store.state);
    if (doc.submit.status === 'busy') return;
    const todo = missing(doc);
    if (todo.length > 0) {
      store.update((s) => {
        const d = documentOf(s);
        d.finishAttempts += 1;
        d.submit = { status: 'idle' };
      });
      const first = todo[0];
      if (first) window.setTimeout(() => { goTo(first.id); }, 600);
      return;
    }
    const { body, fieldIds } = submission(doc);
    setSubmit({ status: 'busy' });
    try {
      const answer = await api<SignAnswer>('POST', signingPath(store.state.token, '/sign'), body, signKey(body));
      page.finished('signed', answer.envelopeStatus);
    } catch (error) {
      const e = asApiError(error);
      if (signingRoute(e).to !== 'inline') {
        setSubmit({ status: 'idle' });
        page.handled(e);
      } else if (e.status === 400) setSubmit(refusal(e.message, e.errors, fieldIds));
      else setSubmit({ status: 'retry', problem: e.status === 0 ? 'network' : e.status === 409 || e.status === 429 ? 'busy' : 'failed' });
    }
  };
}
