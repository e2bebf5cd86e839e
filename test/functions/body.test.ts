/** The request body parser under broken input: every failure is a 4xx error, never a crash. */
import { describe, expect, it } from 'vitest';
import { parseBody } from '#shared/http/body.ts';

const multipart = (text: string, boundary = 'x') => parseBody(Buffer.from(text), `multipart/form-data; boundary=${boundary}`, ['multipart']);

describe('parseBody', () => {
  it('refuses a multipart body cut off inside a file part with a 400, without an unhandled stream error', async () => {
    const cut = '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7';
    await expect(multipart(cut)).rejects.toMatchObject({ name: 'ValidationError', errors: { body: [expect.stringContaining('multipart') as unknown] } });
  });

  it('refuses a multipart body cut off inside a field, and one without its boundary', async () => {
    await expect(multipart('--x\r\nContent-Disposition: form-data; name="data"\r\n\r\n{"a":')).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(parseBody(Buffer.from('{}'), 'multipart/form-data', ['multipart'])).rejects.toMatchObject({ name: 'ValidationError' });
  });

  it('reads a whole multipart body: fields and files', async () => {
    const body = '--x\r\nContent-Disposition: form-data; name="tenantId"\r\n\r\nacme\r\n'
      + '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--x--\r\n';
    const parsed = await multipart(body);
    expect(parsed).toMatchObject({ kind: 'multipart', fields: { tenantId: 'acme' }, files: [{ field: 'file', filename: 'a.pdf', contentType: 'application/pdf' }] });
    expect(parsed.kind === 'multipart' && Buffer.from(parsed.files[0]?.bytes ?? []).toString()).toBe('%PDF-1.7');
  });

  it('answers malformed JSON with a 400 and an unaccepted media type with a 415', async () => {
    await expect(parseBody(Buffer.from('{"a":'), 'application/json', ['json'])).rejects.toMatchObject({ name: 'ValidationError', errors: { body: ['is not valid JSON'] } });
    await expect(parseBody(Buffer.from('x'), 'text/plain', ['empty', 'json'])).rejects.toMatchObject({ name: 'UnsupportedMediaType' });
  });
});
