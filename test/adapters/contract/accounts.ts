import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflict } from '#shared/kernel/errors.ts';
import { DEFAULT_TENANT } from '#shared/kernel/model.ts';
import type { Application, ApplicationRepository, ContactRepository, TenantRepository } from '#shared/ports/repositories.ts';
import { useBuilt, type Builder } from './fixtures.ts';

const application = (over: Partial<Application> = {}): Application => ({
  appId: randomUUID(), name: 'Acme', clientId: `client-${randomUUID()}`, secretHash: 'scrypt$s$h', secretSealed: 'sealed', plan: 'standard',
  envelopesLimit: null, overageAllowed: true, suspended: false, createdAt: '2026-01-01T00:00:00.000Z', ...over,
});

/** ApplicationRepository: lookups by id and by client id, a client id taken once, the secret replaced in place. */
export function describeApplicationRepository(name: string, builder: Builder<ApplicationRepository>): void {
  describe(`ApplicationRepository contract: ${name}`, () => {
    const apps = useBuilt(builder);

    it('creates an application and finds it by id and by client id', async () => {
      const app = application({ envelopesLimit: 10, overageAllowed: false });
      await apps().create(app);
      expect(await apps().get(app.appId)).toEqual(app);
      expect(await apps().getByClientId(app.clientId)).toEqual(app);
      expect(await apps().get(randomUUID())).toBeUndefined();
      expect(await apps().getByClientId(`client-${randomUUID()}`)).toBeUndefined();
    });

    it('refuses a taken client id or application id with Conflict, leaving the first as it was', async () => {
      const app = application();
      await apps().create(app);
      const sameClient = application({ clientId: app.clientId, name: 'Other' });
      await expect(apps().create(sameClient)).rejects.toBeInstanceOf(Conflict);
      expect(await apps().get(sameClient.appId)).toBeUndefined();
      await expect(apps().create(application({ appId: app.appId }))).rejects.toBeInstanceOf(Conflict);
      expect(await apps().getByClientId(app.clientId)).toEqual(app);
    });

    it('lets exactly one of concurrent creations take a client id', async () => {
      const clientId = `client-${randomUUID()}`;
      const results = await Promise.allSettled(Array.from({ length: 5 }, () => apps().create(application({ clientId }))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof Conflict)).toBe(true);
    });

    it('replaces the secret of an existing application only', async () => {
      const app = application();
      await apps().create(app);
      await apps().updateSecret(app.appId, 'scrypt$new$hash', 'new-sealed');
      expect(await apps().getByClientId(app.clientId)).toEqual({ ...app, secretHash: 'scrypt$new$hash', secretSealed: 'new-sealed' });
      await expect(apps().updateSecret(randomUUID(), 'h', 's')).rejects.toThrow();
    });

    it('hands out copies: changing a returned application changes nothing stored', async () => {
      const app = application();
      await apps().create(app);
      app.name = 'changed after create';
      const read = await apps().get(app.appId);
      read!.suspended = true;
      expect(await apps().get(app.appId)).toMatchObject({ name: 'Acme', suspended: false });
    });
  });
}

/** TenantRepository: stored settings or the defaults. */
export function describeTenantRepository(name: string, builder: Builder<TenantRepository>): void {
  describe(`TenantRepository contract: ${name}`, () => {
    const tenants = useBuilt(builder);

    it('answers the defaults for a tenant with no settings, and the stored settings once put', async () => {
      const appId = randomUUID();
      expect(await tenants().get(appId, 'acme')).toEqual({ appId, tenantId: 'acme', ...DEFAULT_TENANT });
      const stored = { defaultExpiresInDays: 5, retentionDays: 365, fieldOrigin: 'top-left', defaultLocale: 'ja', defaultReminders: { firstAfterDays: 3, everyDays: 7 } } as const;
      await tenants().put({ appId, tenantId: 'acme', ...stored });
      expect(await tenants().get(appId, 'acme')).toEqual({ appId, tenantId: 'acme', ...stored });
      expect(await tenants().get(appId, 'other')).toEqual({ appId, tenantId: 'other', ...DEFAULT_TENANT });
      expect(await tenants().get(randomUUID(), 'acme')).toMatchObject(DEFAULT_TENANT);
      await tenants().put({ appId, tenantId: 'acme', defaultExpiresInDays: 9, retentionDays: 30, fieldOrigin: 'bottom-left', defaultLocale: 'en' });
      expect(await tenants().get(appId, 'acme')).toMatchObject({ defaultExpiresInDays: 9, retentionDays: 30, fieldOrigin: 'bottom-left' });
    });

    it('keeps the application\'s branding and each tenant\'s override apart, and logos by id with their bytes', async () => {
      const appId = randomUUID();
      const logo = { id: 'a'.repeat(64), contentType: 'image/png', width: 96, height: 32, sizeBytes: 150_000 } as const;
      const app = { organizationName: 'Acme Corp', primaryColor: '#ffd400', emailFromName: 'Acme', replyTo: null, supportEmail: 'help@acme.example', logo, updatedAt: '2026-01-01T00:00:00.000Z' };
      expect(await tenants().branding(appId, null)).toBeNull();
      await tenants().saveBranding(appId, null, app);
      await tenants().saveBranding(appId, 'eu', { organizationName: 'Acme Europe', updatedAt: '2026-01-02T00:00:00.000Z' });
      expect(await tenants().branding(appId, null)).toEqual(app);
      expect(await tenants().branding(appId, 'eu')).toEqual({ organizationName: 'Acme Europe', updatedAt: '2026-01-02T00:00:00.000Z' });
      expect(await tenants().branding(appId, 'us')).toBeNull();
      // Near the 200 KB limit: the item fits DynamoDB's 400 KB with room to spare
      const bytes = new Uint8Array(200 * 1024).map((_, i) => i % 251);
      await tenants().saveLogo({ ...logo, sizeBytes: bytes.length, bytes, createdAt: '2026-01-01T00:00:00.000Z' });
      const read = await tenants().logo(logo.id);
      expect(read).toMatchObject({ ...logo, sizeBytes: bytes.length });
      expect(Buffer.from(read?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
      expect(await tenants().logo('b'.repeat(64))).toBeNull();
    });

    it('reads what a new envelope takes in one go: the settings (or the defaults) and both branding records', async () => {
      const appId = randomUUID();
      expect(await tenants().forEnvelope(appId, 'eu')).toEqual({ settings: { appId, tenantId: 'eu', ...DEFAULT_TENANT }, app: null, tenant: null });
      const app = { organizationName: 'Acme Corp', updatedAt: '2026-01-01T00:00:00.000Z' };
      const eu = { organizationName: 'Acme Europe', updatedAt: '2026-01-02T00:00:00.000Z' };
      await tenants().saveBranding(appId, null, app);
      await tenants().saveBranding(appId, 'eu', eu);
      await tenants().put({ appId, tenantId: 'eu', defaultExpiresInDays: 9, retentionDays: 30, fieldOrigin: 'bottom-left', defaultLocale: 'de', defaultReminders: null });
      expect(await tenants().forEnvelope(appId, 'eu')).toEqual({ settings: await tenants().get(appId, 'eu'), app, tenant: eu });
      expect(await tenants().forEnvelope(appId, 'us')).toEqual({ settings: { appId, tenantId: 'us', ...DEFAULT_TENANT }, app, tenant: null });
    });
  });
}

const contact = (appId: string, email: string, name = 'Ana', phone: string | null = null) =>
  ({ id: randomUUID(), appId, name, email, phone, createdAt: '2026-01-01T00:00:00.000Z' });

/** ContactRepository: unique per (application, email) case-insensitively, ordered by email, searched by name or email. */
export function describeContactRepository(name: string, builder: Builder<ContactRepository>): void {
  describe(`ContactRepository contract: ${name}`, () => {
    const contacts = useBuilt(builder);

    it('upserts by (application, email) case-insensitively, also under concurrency', async () => {
      const appId = randomUUID();
      const saved = await Promise.all(['A@X.test', 'a@x.test', 'a@X.TEST', 'A@x.test'].map((email, i) => contacts().upsert(contact(appId, email, `Ana ${String(i)}`))));
      expect(new Set(saved.map((c) => c.id)).size).toBe(1);
      expect(await contacts().list(appId, null)).toHaveLength(1);
      expect(await contacts().list(randomUUID(), null)).toEqual([]);
    });

    it('updates name, email casing and phone in place, keeping the id and createdAt', async () => {
      const appId = randomUUID();
      const first = await contacts().upsert(contact(appId, 'ben@x.test', 'Ben'));
      expect(first).toMatchObject({ appId, name: 'Ben', email: 'ben@x.test', phone: null });
      const updated = await contacts().upsert({ ...contact(appId, 'Ben@X.test', 'Benjamin', '+33612345678'), createdAt: '2027-01-01T00:00:00.000Z' });
      expect(updated).toEqual({ ...first, name: 'Benjamin', email: 'Ben@X.test', phone: '+33612345678' });
      expect(await contacts().list(appId, null)).toEqual([updated]);
    });

    it('lists by email and searches name or email case-insensitively', async () => {
      const appId = randomUUID();
      for (const [email, name] of [['zoe@x.test', 'Zoé Martin'], ['Adam@y.test', 'Adam Smith'], ['mia@x.test', 'Mia Adams']] as const) {
        await contacts().upsert(contact(appId, email, name));
      }
      expect((await contacts().list(appId, null)).map((c) => c.email)).toEqual(['Adam@y.test', 'mia@x.test', 'zoe@x.test']);
      expect((await contacts().list(appId, '  ADAM ')).map((c) => c.name)).toEqual(['Adam Smith', 'Mia Adams']);
      expect((await contacts().list(appId, '@X.TEST')).map((c) => c.email)).toEqual(['mia@x.test', 'zoe@x.test']);
      expect((await contacts().list(appId, '   ')).map((c) => c.email)).toHaveLength(3);
      expect(await contacts().list(appId, 'nobody')).toEqual([]);
    });

    it('deletes by id within the application only', async () => {
      const appId = randomUUID();
      const saved = await contacts().upsert(contact(appId, 'b@x.test'));
      expect(await contacts().delete(randomUUID(), saved.id)).toBe(false);
      expect(await contacts().delete(appId, saved.id)).toBe(true);
      expect(await contacts().delete(appId, saved.id)).toBe(false);
      expect(await contacts().list(appId, 'b@')).toEqual([]);
      expect((await contacts().upsert(contact(appId, 'b@x.test'))).id).not.toBe(saved.id);
    });
  });
}
