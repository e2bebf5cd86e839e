/** Names the editor gives field types and fields (shown and read out). */
import type { FieldType } from '#shared/kernel/model.ts';
import { t } from '../i18n/i18n.ts';
import type { Editor } from './author-state.ts';
import type { EditorField } from './author-store.ts';

export function typeName(type: FieldType): string {
  switch (type) {
    case 'signature': return t('author.type.signature');
    case 'initial': return t('author.type.initial');
    case 'date': return t('author.type.date');
    case 'text': return t('author.type.text');
    case 'checkbox': return t('author.type.checkbox');
    case 'attachment': return t('author.type.attachment');
  }
}

/** "Signature for Ada Lovelace, page 2, required". */
export const fieldName = (editor: Editor, field: EditorField) => t('author.fieldName', {
  name: field.label ?? typeName(field.type), recipient: editor.nameOf(field.recipient), page: field.page, required: String(field.required),
});
