import { ConditionalCheckFailedException, TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import { MessageRejected, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand, StateMachineDoesNotExist } from '@aws-sdk/client-sfn';
import { InvalidParameterException, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { lostRace } from '#shared/adapters/aws/dynamo.ts';
import { SesMailer } from '#shared/adapters/aws/ses-mailer.ts';
import { SfnWorkflows } from '#shared/adapters/aws/sfn-workflows.ts';
import { SnsSms } from '#shared/adapters/aws/sns-sms.ts';
import { SqsJobQueue } from '#shared/adapters/aws/sqs-job-queue.ts';
import type { JobMessage } from '#shared/notices/outbox.ts';
import type { WebhookRetryStart } from '#shared/ports/services.ts';

const REGION = { region: 'eu-west-1' };
const $metadata = {};

const sesMock = mockClient(SESv2Client);
const snsMock = mockClient(SNSClient);
const sqsMock = mockClient(SQSClient);
const sfnMock = mockClient(SFNClient);

afterEach(() => {
  sesMock.reset();
  snsMock.reset();
  sqsMock.reset();
  sfnMock.reset();
});

describe('SesMailer', () => {
  const FROM = 'E-Signature <no-reply@example.com>';
  const mailer = () => new SesMailer(new SESv2Client(REGION), FROM);
  const message = { to: 'signer@example.com', subject: 'Please sign: Contrat ✓', text: 'Hello ✓', html: '<p>Hello ✓</p>' };

  it('sends simple UTF-8 content from the configured address to the recipient, without attachments', async () => {
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await mailer().send(message);
    const calls = sesMock.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input).toEqual({
      FromEmailAddress: FROM,
      Destination: { ToAddresses: ['signer@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Please sign: Contrat ✓', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Hello ✓', Charset: 'UTF-8' }, Html: { Data: '<p>Hello ✓</p>', Charset: 'UTF-8' } },
        },
      },
    });
    expect(input.Content?.Simple).not.toHaveProperty('Attachments');
  });

  it('omits attachments when the list is empty', async () => {
    sesMock.on(SendEmailCommand).resolves({});
    await mailer().send({ ...message, attachments: [] });
    expect(sesMock.commandCalls(SendEmailCommand)[0]!.args[0].input.Content?.Simple).not.toHaveProperty('Attachments');
  });

  it('maps attachments to FileName, ContentType and RawContent', async () => {
    sesMock.on(SendEmailCommand).resolves({});
    const pdf = new Uint8Array([37, 80, 68, 70]);
    const png = new Uint8Array([137, 80, 78, 71]);
    await mailer().send({
      ...message,
      attachments: [
        { filename: 'sealed.pdf', contentType: 'application/pdf', content: pdf },
        { filename: 'page.png', contentType: 'image/png', content: png },
      ],
    });
    expect(sesMock.commandCalls(SendEmailCommand)[0]!.args[0].input.Content?.Simple?.Attachments).toEqual([
      { FileName: 'sealed.pdf', ContentType: 'application/pdf', RawContent: pdf },
      { FileName: 'page.png', ContentType: 'image/png', RawContent: png },
    ]);
  });

  it('propagates SES errors', async () => {
    sesMock.on(SendEmailCommand).rejects(new MessageRejected({ message: 'rejected', $metadata }));
    await expect(mailer().send(message)).rejects.toBeInstanceOf(MessageRejected);
  });
});

describe('SnsSms', () => {
  const sms = { to: '+33612345678', text: 'Your code is 123456' };

  it('publishes a transactional SMS to the phone number without a sender id when none is configured', async () => {
    snsMock.on(PublishCommand).resolves({ MessageId: 's-1' });
    await new SnsSms(new SNSClient(REGION), undefined).send(sms);
    const calls = snsMock.commandCalls(PublishCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      PhoneNumber: '+33612345678',
      Message: 'Your code is 123456',
      MessageAttributes: { 'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' } },
    });
  });

  it('treats an empty sender id as not configured', async () => {
    snsMock.on(PublishCommand).resolves({});
    await new SnsSms(new SNSClient(REGION), '').send(sms);
    expect(snsMock.commandCalls(PublishCommand)[0]!.args[0].input.MessageAttributes).not.toHaveProperty(['AWS.SNS.SMS.SenderID']);
  });

  it('adds the sender id when configured', async () => {
    snsMock.on(PublishCommand).resolves({});
    await new SnsSms(new SNSClient(REGION), 'ESIGN').send(sms);
    expect(snsMock.commandCalls(PublishCommand)[0]!.args[0].input).toEqual({
      PhoneNumber: '+33612345678',
      Message: 'Your code is 123456',
      MessageAttributes: {
        'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
        'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: 'ESIGN' },
      },
    });
  });

  it('propagates SNS errors', async () => {
    snsMock.on(PublishCommand).rejects(new InvalidParameterException({ message: 'bad number', $metadata }));
    await expect(new SnsSms(new SNSClient(REGION), undefined).send(sms)).rejects.toBeInstanceOf(InvalidParameterException);
  });
});

describe('SqsJobQueue', () => {
  const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/111122223333/jobs';

  it.each<JobMessage>([
    { type: 'blobs.delete', envelopeId: 'e-1', keys: ['original/e-1/a.pdf'] },
    { type: 'routing.advance', envelopeId: 'e-2', routingOrder: 3 },
    { type: 'retention.tag', envelopeId: 'e-3' },
  ])('sends a $type job as its JSON body with the type attribute', async (job) => {
    sqsMock.on(SendMessageCommand).resolves({ MessageId: 'q-1' });
    await new SqsJobQueue(new SQSClient(REGION), QUEUE_URL).send(job);
    const calls = sqsMock.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input).toEqual({
      QueueUrl: QUEUE_URL,
      MessageBody: JSON.stringify(job),
      MessageAttributes: { type: { DataType: 'String', StringValue: job.type } },
    });
    expect(JSON.parse(input.MessageBody!)).toEqual(job);
  });

  it('propagates SQS errors', async () => {
    sqsMock.on(SendMessageCommand).rejects(new Error('queue down'));
    await expect(new SqsJobQueue(new SQSClient(REGION), QUEUE_URL).send({ type: 'retention.tag', envelopeId: 'e-1' })).rejects.toThrow('queue down');
  });
});

describe('SfnWorkflows', () => {
  const ARNS = {
    seal: 'arn:aws:states:eu-west-1:111122223333:stateMachine:seal',
    webhookRetry: 'arn:aws:states:eu-west-1:111122223333:stateMachine:webhook-retry',
  };
  const workflows = () => new SfnWorkflows(new SFNClient(REGION), ARNS);
  const retry: WebhookRetryStart = {
    appId: 'app-1', webhookId: 'wh-1', deliveryId: 'd-42', attempt: 3, waitSeconds: 120,
  };
  const alreadyExists = () => new ExecutionAlreadyExists({ message: 'Execution Already Exists', $metadata });

  it('starts sealing on the seal state machine: round 1 named after the envelope, later rounds with their number', async () => {
    sfnMock.on(StartExecutionCommand).resolves({ executionArn: 'x', startDate: new Date() });
    await workflows().startSealing('env-1', 1);
    await workflows().startSealing('env-1', 3);
    const calls = sfnMock.commandCalls(StartExecutionCommand);
    expect(calls.map((c) => c.args[0].input)).toEqual([
      { stateMachineArn: ARNS.seal, name: 'env-1', input: JSON.stringify({ envelopeId: 'env-1', round: 1 }) },
      { stateMachineArn: ARNS.seal, name: 'env-1-3', input: JSON.stringify({ envelopeId: 'env-1', round: 3 }) },
    ]);
  });

  it('starts a webhook retry on its state machine, named <deliveryId>-<attempt>', async () => {
    sfnMock.on(StartExecutionCommand).resolves({});
    await workflows().startWebhookRetry(retry);
    const input = sfnMock.commandCalls(StartExecutionCommand)[0]!.args[0].input;
    expect(input).toEqual({ stateMachineArn: ARNS.webhookRetry, name: 'd-42-3', input: JSON.stringify(retry) });
    expect(JSON.parse(input.input!)).toEqual(retry);
  });

  it('treats a second sealing start as a no-op (ExecutionAlreadyExists is swallowed)', async () => {
    sfnMock.on(StartExecutionCommand).resolvesOnce({}).rejects(alreadyExists());
    const sfn = workflows();
    await sfn.startSealing('env-1', 1);
    await expect(sfn.startSealing('env-1', 1)).resolves.toBeUndefined();
    expect(sfnMock.commandCalls(StartExecutionCommand).map((c) => c.args[0].input.name)).toEqual(['env-1', 'env-1']);
  });

  it('swallows ExecutionAlreadyExists for a webhook retry too', async () => {
    sfnMock.on(StartExecutionCommand).rejects(alreadyExists());
    await expect(workflows().startWebhookRetry(retry)).resolves.toBeUndefined();
  });

  it('propagates other errors', async () => {
    const error = new StateMachineDoesNotExist({ message: 'no such machine', $metadata });
    sfnMock.on(StartExecutionCommand).rejects(error);
    await expect(workflows().startSealing('env-1', 1)).rejects.toBe(error);
    await expect(workflows().startWebhookRetry(retry)).rejects.toBe(error);
  });

  it('propagates a plain error named like ExecutionAlreadyExists (only the SDK class is swallowed)', async () => {
    sfnMock.on(StartExecutionCommand).rejects(Object.assign(new Error('lookalike'), { name: 'ExecutionAlreadyExists' }));
    await expect(workflows().startSealing('env-1', 1)).rejects.toThrow('lookalike');
  });
});

describe('lostRace', () => {
  const cancelled = (reasons?: CancellationReason[]) =>
    new TransactionCanceledException({ message: 'Transaction cancelled', $metadata, ...(reasons ? { CancellationReasons: reasons } : {}) });

  it.each([
    ['ConditionalCheckFailed', [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }]],
    ['TransactionConflict', [{ Code: 'TransactionConflict' }, { Code: 'None' }]],
    ['both', [{ Code: 'ConditionalCheckFailed' }, { Code: 'TransactionConflict' }]],
  ] as const)('is true for a cancelled transaction with a %s reason', (_label, reasons) => {
    expect(lostRace(cancelled([...reasons]))).toBe(true);
  });

  it.each([
    ['only None reasons', cancelled([{ Code: 'None' }, { Code: 'None' }])],
    ['a throttling reason', cancelled([{ Code: 'ThrottlingError' }])],
    ['a validation reason', cancelled([{ Code: 'ValidationError' }])],
    ['no reasons', cancelled()],
    ['an empty reason list', cancelled([])],
    ['a ConditionalCheckFailedException outside a transaction', new ConditionalCheckFailedException({ message: 'x', $metadata })],
    ['a plain error', new Error('ConditionalCheckFailed')],
    ['a lookalike named TransactionCanceledException', Object.assign(new Error('x'), {
      name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
    })],
    ['undefined', undefined],
  ] as const)('is false for %s', (_label, error) => {
    expect(lostRace(error)).toBe(false);
  });
});
