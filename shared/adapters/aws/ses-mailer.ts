import { GetAccountCommand, SendEmailCommand, SESv2Client, type SESv2ClientConfig } from '@aws-sdk/client-sesv2';
import type { Clock, EmailMessage, Logger, Mailer } from '#shared/ports/services.ts';

/** The client this adapter runs on: built by shared/deps.ts when a function first sends an email. */
export const sesClient = (config: SESv2ClientConfig) => new SESv2Client(config);

/** SES's sending rate for a new account out of the sandbox: assumed when the account's own cannot be read. */
export const FALLBACK_SEND_RATE = 14;

/** How one container paces its sends to the account's SES rate. */
export interface SesPacing {
  /** How many containers may send at once (the jobs consumer's maximum concurrency): each takes its share of the rate. */
  concurrency: number;
  /** The account's rate when known beforehand (the local stack's stand-in for SES's limit); absent: read with GetAccount. */
  sendsPerSecond?: number;
  /** The longest one send waits for its turn or backs off from throttling; then it fails and its job comes back later. */
  maxWaitMs?: number;
  clock: Clock;
  logger: Logger;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** A send that could not get through SES's rate within its time: the job fails and is delivered again later. */
export class MailThrottled extends Error {
  constructor(detail: string) {
    super(`email not sent: SES sending rate exceeded (${detail})`);
    this.name = 'MailThrottled';
  }
}

const THROTTLED = new Set(['TooManyRequestsException', 'Throttling', 'ThrottlingException']);
const isThrottled = (error: unknown) => error instanceof Error && THROTTLED.has(error.name);

/** Tokens refill at `rate` per second up to one second's worth; a taker reserves its token and waits its turn. */
class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(private readonly rate: number, private readonly now: () => number) {
    this.tokens = Math.max(1, rate);
    this.last = now();
  }

  /** Milliseconds until the reserved token is due (0: now). */
  reserve(): number {
    const now = this.now();
    this.tokens = Math.min(Math.max(1, this.rate), this.tokens + ((now - this.last) * this.rate) / 1000) - 1;
    this.last = now;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.rate;
  }

  release(): void {
    this.tokens += 1;
  }

  /** SES said slow down: nothing more goes out before a full token has refilled. */
  drain(): void {
    this.tokens = Math.min(this.tokens, 0);
  }
}

/**
 * `"Display name" <address>`: an ASCII name as a quoted string, any other as an RFC 2047 encoded word (SES takes
 * non-ASCII display names only encoded).
 */
export function fromHeader(name: string, address: string): string {
  const clean = name.replace(/[\p{Cc}"\\<>]/gu, '').trim();
  const display = /^[\x20-\x7e]*$/.test(clean) ? `"${clean}"` : `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
  return `${display} <${address}>`;
}

export class SesMailer implements Mailer {
  private bucket: Promise<TokenBucket> | undefined;

  /** Without `pacing` every send goes out at once (the local emulator has no rate). */
  constructor(private readonly ses: SESv2Client, private readonly from: string, private readonly pacing?: SesPacing) {}

  async send(message: EmailMessage): Promise<void> {
    const command = new SendEmailCommand({
      FromEmailAddress: message.fromName ? fromHeader(message.fromName, this.from) : this.from,
      ...(message.replyTo?.length ? { ReplyToAddresses: message.replyTo } : {}),
      Destination: { ToAddresses: [message.to] },
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: message.text, Charset: 'UTF-8' }, Html: { Data: message.html, Charset: 'UTF-8' } },
          ...(message.attachments?.length
            ? { Attachments: message.attachments.map((a) => ({ FileName: a.filename, ContentType: a.contentType, RawContent: a.content })) }
            : {}),
        },
      },
    });
    if (!this.pacing) {
      await this.ses.send(command);
      return;
    }
    await this.paced(this.pacing, () => this.ses.send(command));
  }

  /** Waits for a token, sends, and backs off (exponential, full jitter) while SES throttles, all within `maxWaitMs`. */
  private async paced(pacing: SesPacing, send: () => Promise<unknown>): Promise<void> {
    const { clock, maxWaitMs = 20_000, sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)), random = Math.random } = pacing;
    const bucket = await (this.bucket ??= this.bucketFor(pacing));
    const started = clock.now().getTime();
    const spent = () => clock.now().getTime() - started;
    for (let attempt = 0; ; attempt++) {
      const wait = bucket.reserve();
      if (spent() + wait > maxWaitMs) {
        bucket.release();
        throw new MailThrottled(`no turn within ${String(maxWaitMs)} ms`);
      }
      if (wait > 0) await sleep(wait);
      try {
        await send();
        return;
      } catch (error) {
        if (!isThrottled(error)) throw error;
        bucket.drain();
        const backoff = random() * Math.min(5_000, 200 * 2 ** attempt);
        if (spent() + backoff > maxWaitMs) throw new MailThrottled((error as Error).message);
        pacing.logger.warn('SES throttled a send; backing off', { attempt: attempt + 1, backoffMs: Math.round(backoff) });
        await sleep(backoff);
      }
    }
  }

  /** The account's rate (SES GetAccount), read once per container and shared out between the containers that send. */
  private async bucketFor(pacing: SesPacing): Promise<TokenBucket> {
    let rate = FALLBACK_SEND_RATE;
    if (pacing.sendsPerSecond) return new TokenBucket(pacing.sendsPerSecond / Math.max(1, pacing.concurrency), () => pacing.clock.now().getTime());
    try {
      const account = await this.ses.send(new GetAccountCommand({}));
      const max = account.SendQuota?.MaxSendRate;
      if (typeof max === 'number' && max > 0) rate = max;
      else pacing.logger.warn('SES account has no sending rate; pacing at the fallback rate', { sendsPerSecond: rate });
    } catch (error) {
      pacing.logger.warn('SES account rate not readable; pacing at the fallback rate', { sendsPerSecond: rate, error: (error as Error).message });
    }
    return new TokenBucket(rate / Math.max(1, pacing.concurrency), () => pacing.clock.now().getTime());
  }
}
