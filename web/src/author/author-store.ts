/**
 * The editor's state: the fields as the API last answered them, the selection, and the history. Every change is
 * shown at once, saved in order through one queue, and replaced by what the API answers; a change the API refuses
 * is taken back on screen and its message shown. Undo and redo are changes like any other (saved the same way).
 */
import type { ShowIf } from '#shared/envelopes/field-conditions.ts';
import type { TextValidation } from '#shared/envelopes/text-validation.ts';
import type { AttachmentFormat, FieldOrigin, FieldType } from '#shared/kernel/model.ts';
import { asApiError, type ApiError } from '../api-error.ts';

export interface EditorField {
  id: string;
  /** Stays the same when the API gives a new field its id (the element on screen keeps its focus). */
  key?: string;
  documentId: string | null;
  /** The signer's id (envelope) or the role's name (template). */
  recipient: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  origin: FieldOrigin;
  required: boolean;
  label: string | null;
  value: string | null;
  readOnly: boolean;
  /** Shown only while another field (by its label) has a value. */
  showIf: ShowIf | null;
  /** Text fields: what the value must look like. */
  validation: TextValidation | null;
  /** Attachment fields: the formats and the largest file the signer may add. */
  accept?: AttachmentFormat[] | undefined;
  maxBytes?: number | undefined;
}

/** The API's message with the attributes it names ("showIf.label: ... must be unique"), as the bar shows a refusal. */
export function refusal(error: ApiError): string {
  const details = Object.entries(error.errors).map(([at, messages]) => (at ? `${at}: ${messages.join('; ')}` : messages.join('; ')));
  return details.length > 0 ? `${error.message}: ${details.join('. ')}` : error.message;
}

/** One change: a field added (before null), removed (after null) or replaced. */
interface Change { before: EditorField | null; after: EditorField | null }

export interface FieldSaver {
  create(field: EditorField): Promise<EditorField>;
  update(field: EditorField): Promise<EditorField>;
  remove(field: EditorField): Promise<void>;
}

export type SaveState = 'idle' | 'saving' | 'saved' | 'error';

let temporary = 0;
export const temporaryId = () => `new-${String(++temporary)}`;

export class Store {
  fields: EditorField[];
  selected: string | null = null;
  saveState: SaveState = 'idle';
  saveError: string | null = null;
  private undoStack: Change[] = [];
  private redoStack: Change[] = [];
  private pending: Change[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<() => void>();

  constructor(fields: EditorField[], private readonly saver: FieldSaver, private readonly saved: () => void = () => undefined) {
    this.fields = fields;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  emit(): void {
    for (const listener of this.listeners) listener();
  }

  field(id: string | null): EditorField | undefined {
    return id === null ? undefined : this.fields.find((f) => f.id === id);
  }

  select(id: string | null): void {
    this.selected = id;
    this.emit();
  }

  get canUndo() { return this.undoStack.length > 0; }
  get canRedo() { return this.redoStack.length > 0; }

  add(field: EditorField): void {
    this.commit({ before: null, after: field });
    this.selected = field.id;
    this.emit();
  }

  update(id: string, patch: Partial<EditorField>): void {
    const before = this.field(id);
    if (!before) return;
    const after = { ...before, ...patch };
    if (JSON.stringify(after) === JSON.stringify(before)) return;
    this.commit({ before, after });
  }

  remove(id: string): void {
    const before = this.field(id);
    if (!before) return;
    if (this.selected === id) this.selected = null;
    this.commit({ before, after: null });
  }

  undo(): void {
    const change = this.undoStack.pop();
    if (!change) return;
    const inverse = { before: change.after, after: change.before };
    this.redoStack.push(inverse);
    this.apply(inverse, true);
  }

  redo(): void {
    const change = this.redoStack.pop();
    if (!change) return;
    const inverse = { before: change.after, after: change.before };
    this.undoStack.push(inverse);
    this.apply(inverse, true);
  }

  private commit(change: Change): void {
    this.undoStack.push(change);
    if (this.undoStack.length > 200) this.undoStack.shift();
    this.redoStack = [];
    this.apply(change, false);
  }

  private apply(change: Change, fromHistory: boolean): void {
    this.show(change);
    this.pending.push(change);
    this.saveState = 'saving';
    this.saveError = null;
    this.emit();
    this.queue = this.queue.then(() => this.save(change, fromHistory));
  }

  /** Puts a change on screen: the field replaced, added or taken away. */
  private show({ before, after }: Change): void {
    const id = before?.id ?? after?.id;
    const index = this.fields.findIndex((f) => f.id === id);
    if (after && index >= 0) this.fields = this.fields.map((f, i) => (i === index ? after : f));
    else if (after) this.fields = [...this.fields, after];
    else if (index >= 0) this.fields = this.fields.filter((_, i) => i !== index);
    if (!after && this.selected === id) this.selected = null;
  }

  private async save(change: Change, fromHistory: boolean): Promise<void> {
    const { before, after } = change;
    try {
      let answered: EditorField | null = null;
      if (after && !before) {
        answered = await this.saver.create(after);
        this.renumber(after.id, answered.id);
      } else if (after) {
        answered = await this.saver.update(after);
      } else if (before) {
        await this.saver.remove(before);
      }
      this.pending = this.pending.filter((c) => c !== change);
      if (answered) this.replace(answered);
      if (this.pending.length === 0 && this.saveState !== 'error') {
        this.saveState = 'saved';
        this.saved();
      }
    } catch (error) {
      // Refused: back to what was there, and the change leaves the history
      this.pending = this.pending.filter((c) => c !== change);
      this.show({ before: after, after: before });
      const stack = fromHistory ? this.redoStack : this.undoStack;
      const at = stack.findIndex((c) => c.before === before && c.after === after);
      if (at >= 0) stack.splice(at, 1);
      this.saveState = 'error';
      this.saveError = refusal(asApiError(error));
    }
    this.emit();
  }

  /** The API's answer replaces the field on screen (same id), unless a later change of it is still to be saved. */
  private replace(field: EditorField): void {
    if (this.pending.some((c) => c.after?.id === field.id)) return;
    this.fields = this.fields.map((f) => (f.id === field.id ? { ...field, key: f.key ?? f.id } : f));
  }

  /** A field added (or added again by undo) gets its id from the API: every change that names it follows. */
  private renumber(from: string, to: string): void {
    const fix = (f: EditorField | null) => { if (f?.id === from) { f.key ??= from; f.id = to; } };
    for (const c of [...this.undoStack, ...this.redoStack, ...this.pending]) {
      fix(c.before);
      fix(c.after);
    }
    this.fields = this.fields.map((f) => (f.id === from ? { ...f, id: to, key: f.key ?? from } : f));
    if (this.selected === from) this.selected = to;
  }

  /** Resolves once every change made so far is saved (or refused). */
  settled(): Promise<void> {
    return this.queue;
  }
}

export const placementOf = (f: EditorField) => ({ page: f.page, x: f.x, y: f.y, w: f.w, h: f.h });
export type { Change };
