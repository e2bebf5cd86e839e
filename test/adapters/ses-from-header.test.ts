import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { fromHeader, SesMailer } from '#shared/adapters/aws/ses-mailer.ts';
import { parseFrom } from '#local/dev-endpoints.ts';

const sesMock = mockClient(SESv2Client);
afterEach(() => { sesMock.reset(); });

describe('a branded sender', () => {
  it('keeps the verified address and sets the display name and reply-to', async () => {
    sesMock.on(SendEmailCommand).resolves({});
    const mailer = new SesMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@example.com');
    await mailer.send({ to: 'a@example.com', subject: 's', text: 't', html: 'h', fromName: 'Acme Corp via Secure e-signature', replyTo: ['help@acme.example'] });
    await mailer.send({ to: 'a@example.com', subject: 's', text: 't', html: 'h' });
    const [branded, plain] = sesMock.commandCalls(SendEmailCommand).map((c) => c.args[0].input);
    expect(branded).toMatchObject({ FromEmailAddress: '"Acme Corp via Secure e-signature" <no-reply@example.com>', ReplyToAddresses: ['help@acme.example'] });
    expect(plain?.FromEmailAddress).toBe('no-reply@example.com');
    expect(plain?.ReplyToAddresses).toBeUndefined();
  });

  it('encodes a name that is not ASCII, and strips what could break the header', () => {
    expect(fromHeader('Müller GmbH via X', 'n@example.com')).toBe(`=?UTF-8?B?${Buffer.from('Müller GmbH via X').toString('base64')}?= <n@example.com>`);
    expect(fromHeader('Evil"\r\nBcc: x@y.z <a>', 'n@example.com')).toBe('"EvilBcc: x@y.z a" <n@example.com>');
    // The local outbox reads it back
    expect(parseFrom(fromHeader('Müller GmbH via X', 'n@example.com'))).toEqual({ name: 'Müller GmbH via X', address: 'n@example.com' });
    expect(parseFrom('no-reply@example.com')).toEqual({ name: null, address: 'no-reply@example.com' });
  });
});
