import { MemoryEnvelopeRepository } from '#shared/adapters/memory/memory-envelope-repository.ts';
import { MemoryTenantRepository } from '#shared/adapters/memory/memory-tenant-repository.ts';
import { MemoryUsageRepository } from '#shared/adapters/memory/memory-usage-repository.ts';
import { describeEnvelopeRepository } from './contract/envelope-repository.ts';
import { describeEnvelopeSweeps } from './contract/envelope-sweeps.ts';
import { describeEventLog } from './contract/event-log.ts';

describeEnvelopeRepository('in memory', {
  build: () => {
    const usage = new MemoryUsageRepository();
    return { envelopes: new MemoryEnvelopeRepository(usage), usage, tenants: new MemoryTenantRepository() };
  },
});

describeEnvelopeSweeps('in memory', { build: () => ({ envelopes: new MemoryEnvelopeRepository() }) });

describeEventLog('in memory', { build: () => new MemoryEnvelopeRepository() }, 0);
