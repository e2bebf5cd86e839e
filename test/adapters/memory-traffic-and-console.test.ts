import { MemoryApplicationRepository } from '#shared/adapters/memory/memory-application-repository.ts';
import { MemoryContactRepository } from '#shared/adapters/memory/memory-contact-repository.ts';
import { MemoryIdempotencyStore } from '#shared/adapters/memory/memory-idempotency-store.ts';
import { MemoryRateLimiter } from '#shared/adapters/memory/memory-rate-limiter.ts';
import { MemoryTenantRepository } from '#shared/adapters/memory/memory-tenant-repository.ts';
import { MemoryWebhookRepository } from '#shared/adapters/memory/memory-webhook-repository.ts';
import { describeApplicationRepository, describeContactRepository, describeTenantRepository } from './contract/accounts.ts';
import { describeIdempotencyStore, describeRateLimiter } from './contract/traffic.ts';
import { describeWebhookRepository } from './contract/webhooks.ts';
import { describeBulkSendRepository, describeTemplateRepository } from './contract/templates.ts';
import { MemoryTemplateRepository } from '#shared/adapters/memory/memory-template-repository.ts';
import { MemoryBulkSendRepository } from '#shared/adapters/memory/memory-bulk-send-repository.ts';
import { MemoryTeamRepository } from '#shared/adapters/memory/memory-team-repository.ts';
import { describeTeamRepository } from './contract/team.ts';

const fresh = <T>(adapter: new () => T) => ({ build: () => new adapter() });

describeRateLimiter('in memory', fresh(MemoryRateLimiter));
describeIdempotencyStore('in memory', fresh(MemoryIdempotencyStore));
describeApplicationRepository('in memory', fresh(MemoryApplicationRepository));
describeTenantRepository('in memory', fresh(MemoryTenantRepository));
describeContactRepository('in memory', fresh(MemoryContactRepository));
describeWebhookRepository('in memory', fresh(MemoryWebhookRepository));
describeTemplateRepository('in memory', fresh(MemoryTemplateRepository));
describeBulkSendRepository('in memory', fresh(MemoryBulkSendRepository));
describeTeamRepository('in memory', fresh(MemoryTeamRepository));
