/**
 * The signing page's state: one object, changed only through the store, which then tells the views of the screen
 * on show to bring themselves up to date. Views keep DOM nodes; the state keeps none.
 */
import type { ApiError } from '../api-error.ts';
import type { SigningContext, SigningField } from '../api-types.ts';
import type { LinkProblem } from '../problems.ts';
import type { MarkValue, SignatureFont, Value } from './values.ts';

export type Screen =
  | { kind: 'loading' }
  | { kind: 'otp' }
  | { kind: 'consent' }
  | { kind: 'document' }
  | { kind: 'done'; outcome: 'signed' | 'declined' | 'reassigned'; envelopeStatus: string | null }
  | { kind: 'problem'; problem: LinkProblem; detail: string; downloadUrl?: string | null };

/** The one-time code step: what was sent, whether that code still works, what to tell the signer. */
export interface OtpState {
  /** `start`: nothing sent in this visit; `sent`: a code is on its way; `void`: that code no longer works. */
  phase: 'start' | 'sent' | 'void';
  sentTo: string | null;
  validMinutes: number;
  /** Epoch ms until which no new code may be asked for (a 429's Retry-After), or null. */
  waitUntil: number | null;
  error: OtpError | null;
}
export type OtpError =
  | { kind: 'format' } | { kind: 'incorrect' } | { kind: 'expired' } | { kind: 'burnt' }
  | { kind: 'rate_limited' } | { kind: 'failed'; status: number };

/** The document step. Values are replaced, never changed in place, so a view can tell what changed by identity. */
export interface DocumentState {
  /** This signer's fields in reading order (page, then top to bottom, then left to right). */
  fields: readonly SigningField[];
  /** Entered values by field id (dates are filled in by the service and never here). */
  values: Readonly<Record<string, Value>>;
  /** The typed-signature style, one for every typed signature and initials. */
  font: SignatureFont;
  /** The last signature and initials adopted: an empty field of the same type starts from it. */
  adopted: Partial<Record<'signature' | 'initial', MarkValue>>;
  /** Index in `fields` of the field last focused; -1 before the first. */
  cursor: number;
  /** The signer has begun (used the guide or filled in a field): the guide's button then says "Next field". */
  started: boolean;
  /**
   * How often Finish was pressed with required fields empty. From the first time on, those fields are marked and
   * the bar counts what is left, until nothing is; each press says it again.
   */
  finishAttempts: number;
  submit: SubmitState;
  /**
   * What conditions (`showIf`) read besides the signer's own entries: their read-only fields, and other signers'
   * values by label (the context's `conditionValues`). Absent: no field of theirs has a condition.
   */
  conditions?: { readOnly: readonly SigningField[]; others: Readonly<Record<string, string>> };
  /** Document names by id when the envelope holds several (decision 9): the guide says which one a field is in. */
  documentNames?: Readonly<Record<string, string>>;
}

export type SubmitState =
  | { status: 'idle' }
  | { status: 'busy' }
  /** The service refused values (400): its message and the fields it named, each with its messages. */
  | { status: 'refused'; message: string; byField: Readonly<Record<string, readonly string[]>>; other: readonly string[] }
  /** No answer, or one worth retrying: the entries stay and Finish sends the same request again. */
  | { status: 'retry'; problem: 'network' | 'busy' | 'failed' };

export interface SigningState {
  readonly token: string;
  context: SigningContext | null;
  screen: Screen;
  otp: OtpState;
  document: DocumentState | null;
}

export type View = (state: SigningState) => void;

export interface Store {
  readonly state: SigningState;
  /** Changes the state, then runs every view of the screen on show. */
  update(change: (state: SigningState) => void): void;
  /** Adds a view of the screen on show, and runs it once. */
  watch(view: View): void;
  /** Drops the views of the screen that goes. */
  clearViews(): void;
}

export function createStore(token: string): Store {
  const state: SigningState = {
    token, context: null, screen: { kind: 'loading' }, document: null,
    otp: { phase: 'start', sentTo: null, validMinutes: 10, waitUntil: null, error: null },
  };
  let views: View[] = [];
  return {
    state,
    update(change) {
      change(state);
      for (const view of views) view(state);
    },
    watch(view) {
      views.push(view);
      view(state);
    },
    clearViews() {
      views = [];
    },
  };
}

/**
 * What a step may ask of the page as a whole. A step module gets this, not the module that moves between steps,
 * so no step imports the flow and the flow is the only place that knows the order of the steps.
 */
export interface Page {
  readonly store: Store;
  /** Reads the context again and shows the step it calls for. */
  advance(): void;
  /** The consent was given: the document step, with the context already read. */
  consented(): void;
  /** Shows the screen an error calls for (or goes back through the steps); false when it belongs where the signer acted. */
  handled(error: ApiError): boolean;
  /** The signer signed, declined or handed their place to someone else: the done screen. */
  finished(outcome: 'signed' | 'declined' | 'reassigned', envelopeStatus: string | null): void;
  /** Opens the decline dialog. */
  decline(): void;
  /** Opens the "someone else should sign" dialog. */
  reassign(): void;
}

/** The context, once read: every step after the first read has one. */
export function contextOf(state: SigningState): SigningContext {
  if (!state.context) throw new Error('the signing context has not been read');
  return state.context;
}

export function documentOf(state: SigningState): DocumentState {
  if (!state.document) throw new Error('the document step has not started');
  return state.document;
}
