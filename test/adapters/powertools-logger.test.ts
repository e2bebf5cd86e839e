import { afterEach, describe, expect, it, vi } from 'vitest';
import { powertoolsLogger } from '#shared/adapters/powertools-logger.ts';
import { annotateLog, withLogContext } from '#shared/logging.ts';

const lines = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map(([chunk]) => JSON.parse(String(chunk)) as Record<string, unknown>);

describe('the logger', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('writes one JSON line per entry with the request\'s ids, whichever module logs, and the line\'s own fields', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const logger = powertoolsLogger({ serviceName: 'esign-test' });
    await withLogContext(async () => {
      annotateLog({ requestId: 'req-1', appId: 'app-1' });
      await Promise.resolve();
      logger.info('envelope sent', { envelopeId: 'env-1' });
    });
    logger.info('outside any request');
    const [inside, outside] = lines(out);
    expect(inside).toMatchObject({ level: 'INFO', message: 'envelope sent', service: 'esign-test', requestId: 'req-1', appId: 'app-1', envelopeId: 'env-1' });
    expect(typeof inside?.timestamp).toBe('string');
    expect(outside).not.toHaveProperty('requestId');
  });

  it('keeps concurrent requests\' ids apart', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const logger = powertoolsLogger({ serviceName: 'esign-test' });
    const request = (id: string) => withLogContext(async () => {
      annotateLog({ requestId: id });
      await new Promise((resolve) => setImmediate(resolve));
      logger.info('done', { expected: id });
    });
    await Promise.all([request('a'), request('b'), request('c')]);
    for (const line of lines(out)) expect(line.requestId).toBe(line.expected);
  });

  it('honours the level: below it nothing is written', () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const logger = powertoolsLogger({ serviceName: 'esign-test', logLevel: 'ERROR' });
    logger.info('quiet');
    logger.warn('quiet too');
    logger.error('loud', { alarm: true });
    const written = [...lines(out), ...lines(err)];
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ level: 'ERROR', message: 'loud', alarm: true });
  });
});
