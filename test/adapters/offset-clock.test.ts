import { describe, expect, it } from 'vitest';
import { OffsetClock } from '#shared/adapters/system.ts';

describe('OffsetClock (the local service clock)', () => {
  it('wakes a wait when advanced past it, and not before', async () => {
    const clock = new OffsetClock();
    const at = new Date(clock.now().getTime() + 3_600_000).toISOString();
    let woke = false;
    const waiting = clock.until(at).then(() => { woke = true; });
    clock.advance(1800);
    await new Promise((resolve) => setImmediate(resolve));
    expect(woke).toBe(false);
    clock.advance(1800);
    await waiting;
    expect(woke).toBe(true);
    await expect(clock.until(new Date(0).toISOString())).resolves.toBeUndefined(); // already past
  });

  it('ends every wait with an error when stopped, and refuses new ones', async () => {
    const clock = new OffsetClock();
    const waiting = clock.until(new Date(clock.now().getTime() + 86_400_000).toISOString());
    clock.stop();
    await expect(waiting).rejects.toThrow('the local stack is stopping');
    await expect(clock.until(new Date(clock.now().getTime() + 1000).toISOString())).rejects.toThrow('the local stack is stopping');
  });
});
