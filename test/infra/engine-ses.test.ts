/** The local SES engine (aws-ses-v2-local): its mailbox, a taken port, and raw MIME with attachments (engines.test.ts: the others). */
import { randomBytes } from 'node:crypto';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSes, type RunningSes } from '../../local/engines/ses.ts';

import { occupyPort } from '#test/support/ports.ts';

const TEST_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

describe('SES (aws-ses-v2-local)', () => {
  let engine: RunningSes;
  let client: SESv2Client;

  beforeAll(async () => {
    engine = await startSes({});
    client = new SESv2Client({ endpoint: engine.endpoint, region: 'us-east-1', credentials: TEST_CREDENTIALS });
  });

  afterAll(async () => {
    client.destroy();
    await engine.stop();
    await engine.stop(); // idempotent
  });

  it('starts with an empty mailbox on a local endpoint', async () => {
    expect(engine.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await engine.emails()).toEqual([]);
  });

  it('rejects when its port is taken', async () => {
    const taken = await occupyPort();
    try {
      await expect(startSes({ port: taken.port })).rejects.toThrow(/failed to listen/);
    } finally {
      taken.server.close();
    }
  });

  it('stores a Simple email', async () => {
    const sent = await client.send(
      new SendEmailCommand({
        FromEmailAddress: 'esign@example.test',
        Destination: { ToAddresses: ['alice@example.test'], CcAddresses: ['bob@example.test'] },
        Content: {
          Simple: {
            Subject: { Data: 'Please sign: NDA' },
            Body: { Text: { Data: 'Open the link to sign.' }, Html: { Data: '<p>Open the link to sign.</p>' } },
          },
        },
      }),
    );
    const stored = (await engine.emails()).find((e) => e.messageId === sent.MessageId);
    expect(stored).toMatchObject({
      from: 'esign@example.test',
      destination: { to: ['alice@example.test'], cc: ['bob@example.test'], bcc: [] },
      subject: 'Please sign: NDA',
      body: { text: 'Open the link to sign.', html: '<p>Open the link to sign.</p>' },
      attachments: [],
    });
    expect(stored?.at).toBeGreaterThan(0);
  });

  it('stores a Simple email with an attachment', async () => {
    const pdf = randomBytes(1234);
    const sent = await client.send(
      new SendEmailCommand({
        FromEmailAddress: 'esign@example.test',
        Destination: { ToAddresses: ['alice@example.test'] },
        Content: {
          Simple: {
            Subject: { Data: 'Completed' },
            Body: { Text: { Data: 'Signed copy attached.' } },
            Attachments: [{ FileName: 'signed.pdf', RawContent: pdf, ContentType: 'application/pdf' }],
          },
        },
      }),
    );
    const stored = (await engine.emails()).find((e) => e.messageId === sent.MessageId);
    expect(stored?.attachments).toEqual([{ filename: 'signed.pdf', contentType: 'application/pdf', size: pdf.length }]);
  });

  it('parses a Raw MIME email with an attachment', async () => {
    const pdf = randomBytes(2048);
    const mime = rawMimeWithAttachment({ from: 'esign@example.test', to: 'carol@example.test', pdf, filename: 'sealed.pdf' });
    const sent = await client.send(
      new SendEmailCommand({
        Destination: { ToAddresses: ['carol@example.test'] },
        Content: { Raw: { Data: Buffer.from(mime, 'utf8') } },
      }),
    );
    const stored = (await engine.emails()).find((e) => e.messageId === sent.MessageId);
    expect(stored).toMatchObject({
      from: 'esign@example.test',
      destination: { to: ['carol@example.test'] },
      subject: 'Your sealed document',
      attachments: [{ filename: 'sealed.pdf', contentType: 'application/pdf', size: pdf.length }],
    });
    expect(stored?.body.text?.trim()).toBe('The sealed PDF is attached.');
  });
});

function rawMimeWithAttachment(o: { from: string; to: string; pdf: Buffer; filename: string }): string {
  const boundary = 'b-engines-test';
  const base64Lines = o.pdf.toString('base64').match(/.{1,76}/g) ?? [];
  return [
    `From: ${o.from}`,
    `To: ${o.to}`,
    'Subject: Your sealed document',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'The sealed PDF is attached.',
    `--${boundary}`,
    `Content-Type: application/pdf; name="${o.filename}"`,
    `Content-Disposition: attachment; filename="${o.filename}"`,
    'Content-Transfer-Encoding: base64',
    '',
    ...base64Lines,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
