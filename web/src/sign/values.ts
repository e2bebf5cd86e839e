/** What a signer enters in a field, as the state, the draft and the editors keep it. No DOM: pure modules use it. */
import type { SignatureFont } from './font-labels.ts';

export type { SignatureFont };

/** A drawn mark's strokes, as points in pad units (the pad is 1000 units wide). */
export type Strokes = [number, number][][];

/** A signature or initials: drawn (the PNG sent, the strokes kept to edit it again) or typed in the chosen font. */
export type MarkValue = { kind: 'drawn'; png: string; strokes: Strokes } | { kind: 'typed'; text: string };

/** A file the signer attached: the service holds it; the sign request names its id. */
export interface AttachmentValue { kind: 'attachment'; id: string; name: string; sizeBytes: number }

export type Value = MarkValue | { kind: 'text'; text: string } | { kind: 'checkbox'; checked: boolean } | AttachmentValue;
