/** The building blocks of the response schemas: ids, times, hashes, counts. */
import * as v from 'valibot';
import type { Document, PageGeometry } from '#shared/kernel/model.ts';

export const DOCUMENT_KINDS = ['original', 'sealed'] as const satisfies readonly Document['kind'][];
export const PURGE_STATUSES = ['active', 'purged'] as const satisfies readonly Document['purgeStatus'][];
export const PAGE_ROTATIONS = [0, 90, 180, 270] as const satisfies readonly PageGeometry['rotate'][];
export const OTP_CHANNELS = ['email', 'sms'] as const;

export const uuid = v.pipe(v.string(), v.uuid());
export const timestamp = v.pipe(v.string(), v.isoTimestamp());
export const sha256Hex = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/), v.description('SHA-256, lowercase hex'));
export const count = v.pipe(v.number(), v.integer(), v.minValue(0));
export const positive = v.pipe(v.number(), v.integer(), v.minValue(1));
export const fieldErrors = v.record(v.string(), v.array(v.string()));

export const pdfPoints = (what: string) => v.pipe(v.number(), v.description(`${what}, PDF points`));
