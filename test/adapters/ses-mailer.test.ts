import { BadRequestException, GetAccountCommand, MessageRejected, SendEmailCommand, SESv2Client, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_SEND_RATE, MailThrottled, SesMailer } from '#shared/adapters/aws/ses-mailer.ts';
import type { Logger } from '#shared/ports/services.ts';

const sesMock = mockClient(SESv2Client);
const $metadata = {};
const message = { to: 'signer@example.com', subject: 'Please sign', text: 'text', html: '<p>html</p>' };
const throttled = () => new TooManyRequestsException({ message: 'Maximum sending rate exceeded.', $metadata });

/** A mailer on fake timers (its clock moves only as they run), and what it waited and logged. */
function pacedMailer(concurrency: number, maxWaitMs = 20_000) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'Date'], now: 0 });
  const slept: number[] = [];
  const warnings: string[] = [];
  const logger: Logger = { info: () => undefined, warn: (m) => { warnings.push(m); }, error: () => undefined };
  const mailer = new SesMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@example.com', {
    concurrency, maxWaitMs, logger, clock: { now: () => new Date() }, random: () => 1,
    sleep: (ms) => { slept.push(ms); return new Promise((resolve) => setTimeout(resolve, ms)); },
  });
  return { mailer, slept, warnings, elapsed: () => Date.now() };
}

/** Runs the timers until `work` settles. */
async function settled<T>(work: Promise<T>): Promise<T> {
  const outcome = work.then(() => undefined, () => undefined);
  await vi.runAllTimersAsync();
  await outcome;
  return work;
}

afterEach(() => { sesMock.reset(); vi.useRealTimers(); });

describe('SesMailer pacing', () => {
  it("paces a container to its share of the account's rate, read once", async () => {
    sesMock.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 10, Max24HourSend: 50_000, SentLast24Hours: 0 } });
    const { mailer, elapsed } = pacedMailer(5);
    const sentAt: number[] = [];
    sesMock.on(SendEmailCommand).callsFake(() => { sentAt.push(elapsed()); return { MessageId: 'm' }; });
    await settled(Promise.all(Array.from({ length: 5 }, () => mailer.send(message))));
    await settled(mailer.send(message));
    expect(sesMock.commandCalls(GetAccountCommand)).toHaveLength(1);
    // 10 per second over 5 containers: 2 per second here, a burst of 2 and then one every 500 ms
    expect(sentAt).toEqual([0, 0, 500, 1000, 1500, 2000]);
  });

  it('paces to a rate given beforehand (the local stack) without asking the account', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'], now: 0 });
    const logger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const mailer = new SesMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@example.com', {
      concurrency: 1, sendsPerSecond: 4, logger, clock: { now: () => new Date() }, random: () => 1,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    const sentAt: number[] = [];
    sesMock.on(SendEmailCommand).callsFake(() => { sentAt.push(Date.now()); return { MessageId: 'm' }; });
    await settled(Promise.all(Array.from({ length: 6 }, () => mailer.send(message))));
    expect(sesMock.commandCalls(GetAccountCommand)).toHaveLength(0);
    // a burst of one second's worth, then one every 250 ms
    expect(sentAt).toEqual([0, 0, 0, 0, 250, 500]);
  });

  it('paces at the fallback rate, said once, when the account cannot be read (as with the local emulator)', async () => {
    sesMock.on(GetAccountCommand).rejects(new BadRequestException({ message: 'Account not found', $metadata }));
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'm' });
    const { mailer, slept, warnings } = pacedMailer(1);
    await settled(Promise.all(Array.from({ length: FALLBACK_SEND_RATE + 1 }, () => mailer.send(message))));
    expect(warnings).toEqual(['SES account rate not readable; pacing at the fallback rate']);
    expect(sesMock.commandCalls(GetAccountCommand)).toHaveLength(1);
    expect(slept).toEqual([1000 / FALLBACK_SEND_RATE]);
  });

  it('backs off exponentially while SES throttles, then sends', async () => {
    sesMock.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 100 } });
    sesMock.on(SendEmailCommand).rejectsOnce(throttled()).rejectsOnce(throttled()).resolves({ MessageId: 'm' });
    const { mailer, slept, warnings } = pacedMailer(1);
    await settled(mailer.send(message));
    expect(sesMock.commandCalls(SendEmailCommand)).toHaveLength(3);
    // each throttle waits out its backoff (200 ms, then 400 ms at most), and the bucket is drained behind it
    expect(slept.filter((ms) => ms >= 200)).toEqual([200, 400]);
    expect(warnings).toHaveLength(2);
  });

  it('fails the send once throttling outlasts its time, so the job is delivered again later', async () => {
    sesMock.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 1 } });
    sesMock.on(SendEmailCommand).rejects(throttled());
    const { mailer, elapsed } = pacedMailer(1, 5_000);
    await expect(settled(mailer.send(message))).rejects.toBeInstanceOf(MailThrottled);
    expect(elapsed()).toBeLessThanOrEqual(5_000);
    expect(sesMock.commandCalls(SendEmailCommand).length).toBeLessThan(10);
  });

  it('fails a send that cannot get a turn within its time, without calling SES', async () => {
    sesMock.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 1 } });
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'm' });
    const { mailer } = pacedMailer(10, 5_000);
    await settled(mailer.send(message));
    await expect(settled(mailer.send(message))).rejects.toBeInstanceOf(MailThrottled);
    expect(sesMock.commandCalls(SendEmailCommand)).toHaveLength(1);
  });

  it('passes any other SES error on at once', async () => {
    sesMock.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 10 } });
    sesMock.on(SendEmailCommand).rejects(new MessageRejected({ message: 'rejected', $metadata }));
    const { mailer, slept } = pacedMailer(1);
    await expect(settled(mailer.send(message))).rejects.toBeInstanceOf(MessageRejected);
    expect(sesMock.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  it('sends at once, reading no account, without pacing', async () => {
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'm' });
    const mailer = new SesMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@example.com');
    await Promise.all([mailer.send(message), mailer.send(message)]);
    expect(sesMock.commandCalls(GetAccountCommand)).toHaveLength(0);
    expect(sesMock.commandCalls(SendEmailCommand)).toHaveLength(2);
  });
});
