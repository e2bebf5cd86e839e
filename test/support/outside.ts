import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import type { Job } from '#shared/notices/outbox.ts';
import type { DocumentSigner, EmailMessage, JobQueue, Mailer, SmsMessage, SmsSender, WebhookRetryStart, Workflows } from '#shared/ports/services.ts';

/** What a test's deps sent out, in order: the same shape whether the repositories are DynamoDB Local or in memory. */
export interface Sent {
  emails: EmailMessage[];
  sms: SmsMessage[];
  jobs: Job[];
  /** Envelope ids whose sealing workflow was started. */
  sealing: string[];
  retries: WebhookRetryStart[];
}

/** Email, SMS, the jobs queue and the workflows, captured in memory instead of leaving the process. */
export function captured(): { sent: Sent; mailer: Mailer; sms: SmsSender; jobs: JobQueue; workflows: Workflows } {
  const sent: Sent = { emails: [], sms: [], jobs: [], sealing: [], retries: [] };
  return {
    sent,
    mailer: { send: (m) => { sent.emails.push(m); return Promise.resolve(); } },
    sms: { send: (m) => { sent.sms.push(m); return Promise.resolve(); } },
    jobs: { send: (j) => { sent.jobs.push(j); return Promise.resolve(); } },
    workflows: {
      startSealing: (id) => { sent.sealing.push(id); return Promise.resolve(); },
      startWebhookRetry: (input) => { sent.retries.push(input); return Promise.resolve(); },
    },
  };
}

/** The local seal key every test signs with, made once in the temp directory. */
export const testSigner = (): Promise<DocumentSigner> => KeyFileSigner.open(join(tmpdir(), 'esign-test-signing'));
