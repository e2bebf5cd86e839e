import { MemoryApplicationRepository } from '#shared/adapters/memory/memory-application-repository.ts';
import { MemoryBlobStore } from '#shared/adapters/memory/memory-blob-store.ts';
import { MemoryContactRepository } from '#shared/adapters/memory/memory-contact-repository.ts';
import { MemoryEnvelopeRepository } from '#shared/adapters/memory/memory-envelope-repository.ts';
import { MemoryIdempotencyStore } from '#shared/adapters/memory/memory-idempotency-store.ts';
import { MemoryRateLimiter } from '#shared/adapters/memory/memory-rate-limiter.ts';
import { MemoryTenantRepository } from '#shared/adapters/memory/memory-tenant-repository.ts';
import { MemoryUsageRepository } from '#shared/adapters/memory/memory-usage-repository.ts';
import { MemoryWebhookRepository } from '#shared/adapters/memory/memory-webhook-repository.ts';
import { MemoryTemplateRepository } from '#shared/adapters/memory/memory-template-repository.ts';
import { MemoryBulkSendRepository } from '#shared/adapters/memory/memory-bulk-send-repository.ts';
import { MemoryIdentityAdmin } from '#shared/adapters/memory/memory-identity-admin.ts';
import { MemoryTeamRepository } from '#shared/adapters/memory/memory-team-repository.ts';
import { AesSecretBox } from '#shared/adapters/local/aes-secret-box.ts';
import { MemoryMetrics } from '#shared/adapters/emf-metrics.ts';
import { powertoolsLogger } from '#shared/adapters/powertools-logger.ts';
import { systemClock, uuidV7Ids } from '#shared/adapters/system.ts';
import { HttpWebhookSender } from '#shared/adapters/http/webhook-sender.ts';
import type { Deps } from '#shared/deps.ts';
import { captured, testSigner, type Sent } from './outside.ts';
import { testConfig } from './config.ts';

/**
 * The same Deps as functionDeps, every repository, store and blob in memory (shared/adapters/memory, held to the
 * DynamoDB adapters' behaviour by test/adapters/contract): for use-case and function tests that need no real engine.
 * Nothing is shared between two calls. Email, SMS, jobs and workflows are captured in `sent`, as functionDeps does.
 */
export async function memoryDeps(overrides: Partial<Deps> = {}): Promise<Deps & { sent: Sent }> {
  const config = testConfig();
  const clock = overrides.clock ?? systemClock;
  const usage = new MemoryUsageRepository();
  const applications = new MemoryApplicationRepository();
  const webhooks = new MemoryWebhookRepository();
  const { sent, ...outside } = captured();
  const signer = await testSigner();
  const deps: Deps = {
    config,
    clock,
    ids: uuidV7Ids,
    envelopes: new MemoryEnvelopeRepository(usage, undefined, webhooks),
    tenants: new MemoryTenantRepository(),
    applications,
    team: new MemoryTeamRepository(applications),
    blobs: new MemoryBlobStore(),
    mailer: outside.mailer,
    sms: outside.sms,
    identities: new MemoryIdentityAdmin(),
    secrets: new AesSecretBox(config.dataKey),
    jobs: outside.jobs,
    workflows: outside.workflows,
    webhooks,
    // Built from the route declarations on first use (importing them all costs a test that never asks).
    apiDescription: { document: async () => (await import('#infra/openapi.ts')).inMemoryApiDescription(config.baseUrl).document() },
    documentSigner: signer,
    sealChain: signer,
    contacts: new MemoryContactRepository(),
    usage,
    templates: new MemoryTemplateRepository(),
    bulkSends: new MemoryBulkSendRepository(),
    rateLimiter: new MemoryRateLimiter(),
    idempotency: new MemoryIdempotencyStore(),
    sealEvidence: { level: 'B-B' },
    logger: powertoolsLogger(),
    metrics: new MemoryMetrics(),
    webhookSender: new HttpWebhookSender({ timeoutMs: config.webhookTimeoutMs, allowLoopback: true }),
    ...overrides,
  };
  return { ...deps, sent };
}
