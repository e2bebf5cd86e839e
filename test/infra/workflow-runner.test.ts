import { afterEach, describe, expect, it, vi } from 'vitest';
import { invokeWithin } from '#local/aws-limits.ts';
import { loadStateMachine } from '#local/workflow-runner.ts';
import type { Deps } from '#shared/deps.ts';
import { calls } from '#test/fixtures/workflows/attempt-counter.ts';
import { invocations } from '#test/fixtures/workflows/never-answers.ts';
import { failures } from '#test/fixtures/workflows/record-failure.ts';

afterEach(() => { vi.useRealTimers(); });

describe('the local workflow runner', () => {
  it('waits on the service clock in Wait states, however much real time passes (a Task would time out after 60 s)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let serviceNow = new Date('2026-06-01T00:00:00.000Z');
    const waits: { at: number; wake: () => void }[] = [];
    const until = (iso: string) => new Promise<void>((wake) => { waits.push({ at: Date.parse(iso), wake }); });
    const advanceServiceClock = (seconds: number) => {
      serviceNow = new Date(serviceNow.getTime() + seconds * 1000);
      for (const w of waits.filter((x) => x.at <= serviceNow.getTime())) w.wake();
    };
    const deps = {} as Deps;
    const def = {
      name: 'webhook-retry', definition: 'infra/workflows/webhook-retry.asl.json',
      tasks: { Attempt: { variable: 'WebhookAttemptFunctionArn', handler: 'test/fixtures/workflows/attempt-counter.ts' } },
    };
    const run = await loadStateMachine(process.cwd(), def, () => deps, { now: () => serviceNow, until, busy: () => undefined }, 1);
    let settled: string | null = null;
    void run({ deliveryId: 'd', waitSeconds: 60 }).then(() => { settled = 'succeeded'; }, (error: unknown) => { settled = `failed: ${String(error)}`; });

    await vi.advanceTimersByTimeAsync(10 * 60_000); // ten minutes of real time, the service clock standing still
    expect(settled).toBeNull();
    expect(calls).toHaveLength(0);
    advanceServiceClock(60);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2 * 3600_000); // two hours of real time: the next wait (1 h) is on the service clock
    expect(calls).toHaveLength(1);
    advanceServiceClock(3600);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(settled).toBe('succeeded');
  });

  it('fails a task whose function runs past its timeout as Lambda does: retried as the state machine says, then caught', async () => {
    const timeouts: number[] = [];
    const lines: string[] = [];
    const hooks = {
      now: () => new Date(), until: () => Promise.resolve(), busy: () => undefined,
      // Each timer fires at once: the test does not wait out 300 s.
      invoke: <T>(handler: string, work: () => Promise<T>) => invokeWithin(handler, 300, work, {
        timer: (ms) => { timeouts.push(ms); return Promise.resolve(); }, log: (message) => { lines.push(message); },
      }),
    };
    const def = {
      name: 'seal-envelope', definition: 'infra/workflows/seal-envelope.asl.json',
      tasks: {
        Seal: { variable: 'SealFunctionArn', handler: 'test/fixtures/workflows/never-answers.ts' },
        Finalize: { variable: 'FinalizeFunctionArn', handler: 'test/fixtures/workflows/attempt-counter.ts' },
        RecordFailure: { variable: 'SealFailedFunctionArn', handler: 'test/fixtures/workflows/record-failure.ts' },
      },
    };
    const run = await loadStateMachine(process.cwd(), def, () => ({}) as Deps, hooks, 1);
    const error = await run({ envelopeId: 'env', round: 1 }).then(() => null, (e: unknown) => e);
    expect(String(error)).toContain('This round of sealing failed'); // the SealRoundFailed state's cause
    expect(invocations).toHaveLength(6); // the first attempt and the Seal state's five retries
    expect(timeouts.slice(0, 6)).toEqual(Array(6).fill(300_000));
    expect(lines[0]).toBe('test/fixtures/workflows/never-answers.ts ran past its Lambda timeout of 300 s');
    expect(failures).toEqual([{ envelopeId: 'env', round: 1, error: { Error: 'Sandbox.Timedout', Cause: 'Task timed out after 300.00 seconds' } }]);
  });
});
