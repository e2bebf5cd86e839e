import { powertoolsLogger } from '#shared/adapters/powertools-logger.ts';

const logger = powertoolsLogger();

/** A scheduled job (expiry sweep, webhook retries, purge, reminders), run on the service clock. */
export type Job = (now: Date) => Promise<void>;

/** Runs the scheduled jobs one after another; a failing job is logged and does not stop the others. */
export async function runScheduled(jobs: readonly Job[], now: Date): Promise<void> {
  for (const job of jobs) {
    try {
      await job(now);
    } catch (error) {
      logger.error('scheduled job failed', { error: (error as Error).message });
    }
  }
}
