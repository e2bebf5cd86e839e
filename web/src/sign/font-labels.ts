/**
 * The labels a signer chooses from for a typed signature (SignRequest.fontLabel): the same list, in the same
 * order, as sealing's SIGNATURE_FONTS (shared/sealing/text/catalog.ts), whose TTF files the build bundles. No DOM here:
 * the browser tests import it to compare the two lists.
 */
export const SIGNATURE_FONTS = ['Dancing Script', 'Great Vibes', 'Caveat'] as const;
export type SignatureFont = (typeof SIGNATURE_FONTS)[number];
