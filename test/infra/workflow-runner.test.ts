import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadStateMachine } from '#infra/local/workflow-runner.ts';
import type { Deps } from '#shared/deps.ts';
import { calls } from '#test/fixtures/workflows/attempt-counter.ts';

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
});
