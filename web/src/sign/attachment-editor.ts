/**
 * The editor of an attachment field: choose a file, watch it upload (straight to storage with the presigned POST,
 * its progress shown), see it checked, replace or remove it. The service judges the file by its content; the page's
 * `accept` filter only helps the signer pick.
 */
import { api, asApiError, idempotencyKeys, signingPath, type ApiError } from '../api.ts';
import type { SigningField } from '../api-types.ts';
import { h, notice, uid } from '../dom.ts';
import { formatBytes, t } from '../i18n/i18n.ts';
import { openEditor } from './editors.ts';
import type { AttachmentValue } from './values.ts';

interface UploadUrl { uploadId: string; url: string; fields: Record<string, string>; maxBytes: number }
interface Added { id: string; name: string; sizeBytes: number }

const MIME: Record<string, string> = { pdf: 'application/pdf,.pdf', png: 'image/png,.png', jpeg: 'image/jpeg,.jpg,.jpeg' };
const formatsOf = (field: SigningField) => (field.accept ?? ['pdf', 'png', 'jpeg']).map((f) => f.toUpperCase()).join(', ');

/** The presigned POST, by XMLHttpRequest: fetch cannot report upload progress. */
function postToStorage(upload: UploadUrl, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append('file', file);
    const request = new XMLHttpRequest();
    request.upload.addEventListener('progress', (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) resolve();
      else reject(new Error(String(request.status)));
    });
    request.addEventListener('error', () => { reject(new Error('network')); });
    request.open('POST', upload.url);
    request.send(form);
  });
}

/** What the signer is told about a refused file. */
function refusal(error: ApiError, field: SigningField): string {
  if (error.reason === 'attachment_unrecognised') return t('attach.refused.unrecognised');
  if (error.reason === 'attachment_not_accepted') return t('attach.refused.notAccepted', { formats: formatsOf(field) });
  if (error.status === 413) return t('attach.refused.tooLarge', { size: formatBytes(field.maxBytes ?? 0) });
  if (error.status === 400 && error.reason !== null) return t('attach.refused.damaged');
  return t('attach.refused.other');
}

/** Resolves with the field's file after the change (null: removed), or undefined when the dialog closed unchanged. */
export function editAttachment(token: string, field: SigningField, current: AttachmentValue | undefined): Promise<AttachmentValue | null | undefined> {
  const titleId = uid('attach-title');
  const inputId = uid('attach-file');
  const hintId = uid('attach-hint');
  const keys = { url: idempotencyKeys(), complete: idempotencyKeys() };
  let value: AttachmentValue | null | undefined = current;
  const input = h('input', { id: inputId, type: 'file', accept: (field.accept ?? ['pdf', 'png', 'jpeg']).map((f) => MIME[f]).join(','), 'aria-describedby': hintId });
  const progress = h('progress', { max: 1, value: 0, 'aria-label': t('attach.progressLabel') });
  const status = h('p', { class: 'hint', role: 'status' });
  const progressRow = h('div', { class: 'stack attach-progress' }, progress, status);
  progressRow.hidden = true;
  const errorBox = h('div');
  const currentBox = h('div', { class: 'attach-current' });
  const done = h('button', { type: 'submit', class: 'button button-primary' }, t('attach.done'));
  const remove = h('button', { type: 'button', class: 'button button-secondary button-small' }, t('attach.remove'));
  const showCurrent = () => {
    currentBox.replaceChildren(value ? h('p', null, t('attach.current', { name: value.name, size: formatBytes(value.sizeBytes) }), ' ', remove) : h('p', { class: 'hint' }, t('attach.none')));
  };
  showCurrent();
  const form = h('form', { method: 'dialog', class: 'stack' },
    h('h2', { id: titleId }, field.label ?? ''),
    currentBox,
    h('div', { class: 'form-row' }, h('label', { for: inputId }, value ? t('attach.replace') : t('attach.choose')), input,
      h('p', { class: 'hint', id: hintId }, t('attach.hint', { formats: formatsOf(field), size: formatBytes(field.maxBytes ?? 0) }))),
    progressRow, errorBox,
    h('div', { class: 'dialog-actions' }, done),
  );

  const upload = async (file: File) => {
    errorBox.replaceChildren();
    progressRow.hidden = false;
    progress.value = 0;
    status.textContent = t('attach.uploading', { name: file.name });
    input.disabled = true;
    try {
      const body = { fieldId: field.id, filename: file.name, sizeBytes: file.size };
      const url = await api<UploadUrl>('POST', signingPath(token, '/attachments/upload-url'), body, keys.url(body));
      await postToStorage(url, file, (fraction) => { progress.value = fraction; });
      progress.value = 1;
      status.textContent = t('attach.checking');
      const added = await api<Added>('POST', signingPath(token, `/attachments/upload-url/${url.uploadId}/complete`), undefined, keys.complete(url.uploadId));
      value = { kind: 'attachment', id: added.id, name: added.name, sizeBytes: added.sizeBytes };
      status.textContent = t('attach.added', { name: added.name });
      showCurrent();
    } catch (error) {
      progressRow.hidden = true;
      errorBox.replaceChildren(notice('error', refusal(asApiError(error), field)));
    } finally {
      input.disabled = false;
      input.value = '';
    }
  };

  return openEditor<AttachmentValue | null>(titleId, form, (finish) => {
    input.addEventListener('change', () => { const file = input.files?.[0]; if (file) void upload(file); });
    remove.addEventListener('click', () => {
      const removing = value;
      if (!removing) return;
      void api('DELETE', signingPath(token, `/attachments/${removing.id}`)).then(() => {
        value = null;
        status.textContent = t('attach.removed');
        showCurrent();
      }, (error: unknown) => { errorBox.replaceChildren(notice('error', refusal(asApiError(error), field))); });
    });
    done.addEventListener('click', (event) => {
      event.preventDefault();
      finish(value ?? null);
    });
    input.focus();
  }).then((result) => (result === null && value === current ? undefined : value));
}
