/**
 * The signer-facing API's shapes, taken from the service's own schemas: type-only imports, erased by esbuild, so
 * the page carries none of the server code and cannot drift from what the API declares.
 */
import type { InferInput, InferOutput } from 'valibot';
import type { ErrorReason } from '#shared/kernel/errors.ts';
import type { PageGeometry } from '#shared/kernel/model.ts';
import type { DeclineResultResponse, DownloadStatusResponse, OtpRequestedResponse, SigningContextResponse, SignResultResponse } from '#shared/signing/signing-response-schemas.ts';
import type { DeclineRequest, SignRequest } from '#shared/signing/signing-schemas.ts';

export type { ErrorReason, PageGeometry };
export type SigningContext = InferOutput<typeof SigningContextResponse>;
export type SigningField = SigningContext['fields'][number];
export type FieldType = SigningField['type'];
export type OtpRequestAnswer = InferOutput<typeof OtpRequestedResponse>;
export type SignAnswer = InferOutput<typeof SignResultResponse>;
export type DeclineAnswer = InferOutput<typeof DeclineResultResponse>;
export type DownloadStatus = InferOutput<typeof DownloadStatusResponse>;
export type PageBranding = NonNullable<SigningContext['branding']>;
export type SignBody = InferInput<typeof SignRequest>;
export type FieldSubmission = SignBody['fields'][number];
export type DeclineBody = InferInput<typeof DeclineRequest>;
