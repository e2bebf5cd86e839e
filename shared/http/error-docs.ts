/** Error meanings several routes document the same way (each route's `errors` in its declaration). */
export const CONCURRENT = 'Another request changed the envelope at the same time; retry';
export const LINK_UNUSABLE = 'The link is invalid, expired or replaced by a newer one, or the envelope is voided, declined or expired';
export const LINK_USED = 'The link has been used: the signer already signed or declined (a link is single-use)';
export const LINK_BEFORE_OTP = `${LINK_UNUSABLE}; or the one-time code is not verified yet`;
export const NO_ENVELOPE = 'No such envelope for this application';
export const PDF_HEADERS = {
  sha256: { description: 'SHA-256 of the PDF, lowercase hex', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
};
export const DOWNLOAD_LINK_UNUSABLE = 'The download link is invalid or expired';
export const SEALED_PURGED = 'The sealed PDF was deleted at the end of its retention period';
