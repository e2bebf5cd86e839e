import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/kernel/errors.ts';
import { parseBody } from './body.ts';
import { assertWellFormed } from './validation.ts';

const LONE = '\uD800';

/** The field a ValidationError names, or the error itself when it is something else. */
async function refusedField(work: () => unknown): Promise<string> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ValidationError) return Object.keys(error.errors)[0] ?? '';
    throw error;
  }
  throw new Error('accepted');
}

describe('well-formed Unicode in requests', () => {
  it('accepts every well-formed string, surrogate pairs and noncharacters included', () => {
    expect(() => { assertWellFormed({ name: 'Zoë 😀 \uFFFF', list: ['𝄞', { k: 'ok' }] }, 'body'); }).not.toThrow();
  });

  it.each([
    ['a lone high surrogate', { filename: `${LONE}.pdf` }, 'body.filename'],
    ['a lone low surrogate', { signers: [{ name: 'a\uDC00' }] }, 'body.signers[0].name'],
    ['a reversed pair', { subject: '\uDE00\uD83D' }, 'body.subject'],
    ['a high surrogate at the end', { email: 'x@y.z\uD83D' }, 'body.email'],
    ['a lone surrogate in a key', { [`k${LONE}`]: 'v' }, 'body'],
  ])('refuses %s, naming the field', async (_, value, field) => {
    expect(await refusedField(() => { assertWellFormed(value, 'body'); })).toBe(field);
  });

  it('refuses a JSON body with an escaped lone surrogate (valid JSON, no valid UTF-8)', async () => {
    const raw = Buffer.from('{"filename":"\\ud800.pdf"}');
    expect(await refusedField(() => parseBody(raw, 'application/json', ['json']))).toBe('body.filename');
  });

  it('refuses a multipart file name that decodes to a lone surrogate', async () => {
    // RFC 5987 filename* in UTF-16LE: 00 D8 is U+D800 alone
    const raw = Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename*=utf-16le\'\'%00%D8%2E%00p%00\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--x--\r\n');
    expect(await refusedField(() => parseBody(raw, 'multipart/form-data; boundary=x', ['multipart']))).toBe('file (its file name)');
  });

  it('reads invalid UTF-8 in a form body as U+FFFD, which is well-formed', async () => {
    const parsed = await parseBody(Buffer.from('client_id=a%ED%A0%80b'), 'application/x-www-form-urlencoded', ['form']);
    expect(parsed).toEqual({ kind: 'form', fields: { client_id: 'a\uFFFD\uFFFD\uFFFDb' } });
  });
});
