/**
 * The editor's history and save queue on a fake API: changes are saved in order, the API's answer replaces what is
 * shown, a refused change is taken back, and undo of a delete adds the field again under its new id.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../web/src/api-error.ts';
import { Store, type EditorField, type FieldSaver } from '../../web/src/author/author-store.ts';

const field = (id: string, x = 72): EditorField => ({
  id, documentId: 'doc', recipient: 'sgn', type: 'text', page: 1, x, y: 100, w: 100, h: 20, origin: 'bottom-left', required: true, label: null, value: null, readOnly: false, showIf: null, validation: null,
});

function fakeApi() {
  const stored = new Map<string, EditorField>();
  const calls: string[] = [];
  let next = 0;
  let refuse = false;
  const check = () => {
    if (refuse) throw new ApiError({ status: 409, code: 'conflict', message: 'changed meanwhile' });
  };
  const saver: FieldSaver = {
    create: (f) => { calls.push(`create ${f.id}`); check(); const saved = { ...f, id: `fld-${String(++next)}` }; stored.set(saved.id, saved); return Promise.resolve(saved); },
    update: (f) => { calls.push(`update ${f.id} x=${String(f.x)}`); check(); stored.set(f.id, { ...f }); return Promise.resolve({ ...f }); },
    remove: (f) => { calls.push(`remove ${f.id}`); check(); stored.delete(f.id); return Promise.resolve(); },
  };
  return { saver, stored, calls, refuseNext: (value: boolean) => { refuse = value; } };
}

describe('the editor store', () => {
  it('saves in order, takes the API\'s id, and undoes and redoes through the API', async () => {
    const api = fakeApi();
    let savedEvents = 0;
    const store = new Store([], api.saver, () => { savedEvents++; });
    store.add(field('new-1'));
    store.update('new-1', { x: 80 });
    expect(store.saveState).toBe('saving');
    await store.settled();
    expect(api.calls).toEqual(['create new-1', 'update fld-1 x=80']);
    expect(store.fields.map((f) => [f.id, f.key, f.x])).toEqual([['fld-1', 'new-1', 80]]);
    expect(store.saveState).toBe('saved');
    expect(savedEvents).toBe(1);

    store.remove('fld-1');
    store.undo(); // the field comes back, as a new one
    await store.settled();
    expect(api.calls.slice(2)).toEqual(['remove fld-1', 'create fld-1']);
    expect(store.fields.map((f) => [f.id, f.x])).toEqual([['fld-2', 80]]);
    store.undo(); // back to x = 72, on the field's new id
    await store.settled();
    expect(api.calls.at(-1)).toBe('update fld-2 x=72');
    store.redo();
    await store.settled();
    expect(api.calls.at(-1)).toBe('update fld-2 x=80');
    expect([...api.stored.values()].map((f) => [f.id, f.x])).toEqual([['fld-2', 80]]);
  });

  it('takes back a refused change, shows its message and drops it from the history', async () => {
    const api = fakeApi();
    const store = new Store([field('fld-9')], api.saver);
    api.refuseNext(true);
    store.update('fld-9', { x: 300 });
    expect(store.field('fld-9')?.x).toBe(300);
    await store.settled();
    expect(store.field('fld-9')?.x).toBe(72);
    expect(store.saveState).toBe('error');
    expect(store.saveError).toBe('changed meanwhile');
    expect(store.canUndo).toBe(false);
  });
});
