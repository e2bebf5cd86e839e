import type { AttachmentFormat } from '../kernel/model.ts';

export const MIME_TYPES: Record<AttachmentFormat, string> = { pdf: 'application/pdf', png: 'image/png', jpeg: 'image/jpeg' };
export const EXTENSIONS: Record<AttachmentFormat, string> = { pdf: 'pdf', png: 'png', jpeg: 'jpg' };
