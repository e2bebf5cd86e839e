import { sendDeletionReminders } from '#domain/use-cases/retention.ts';
import { worker } from '#http/lambda.ts';
import type { Deps } from '#shared/deps.ts';

/** Daily: the 20-, 10- and 1-day deletion reminders (spec 3.4). Idempotent: each is recorded before it is sent. */
export const createHandler = (deps: Deps) => async (): Promise<{ reminders: number }> => ({ reminders: await sendDeletionReminders(deps) });

export const handler = worker(createHandler);
