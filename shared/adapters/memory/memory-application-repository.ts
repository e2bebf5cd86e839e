import { Conflict } from '#shared/kernel/errors.ts';
import type { Application, ApplicationRepository, ApplicationSettings } from '#shared/ports/repositories.ts';
import { copy } from './memory-table.ts';

export class MemoryApplicationRepository implements ApplicationRepository {
  private readonly apps = new Map<string, Application>();
  /** Client id to application id, as the table's pointer item. */
  private readonly clients = new Map<string, string>();

  get(appId: string): Promise<Application | undefined> {
    const app = this.apps.get(appId);
    return Promise.resolve(app && copy(app));
  }

  getByClientId(clientId: string): Promise<Application | undefined> {
    const appId = this.clients.get(clientId);
    return appId === undefined ? Promise.resolve(undefined) : this.get(appId);
  }

  create(app: Application): Promise<void> {
    if (this.apps.has(app.appId) || this.clients.has(app.clientId)) return Promise.reject(new Conflict(`Client id ${app.clientId} is already taken`));
    this.apps.set(app.appId, copy(app));
    this.clients.set(app.clientId, app.appId);
    return Promise.resolve();
  }

  updateSecret(appId: string, secretHash: string, secretSealed: string): Promise<void> {
    const app = this.apps.get(appId);
    if (!app) return Promise.reject(new Error(`application ${appId} does not exist`));
    this.apps.set(appId, { ...app, secretHash, secretSealed });
    return Promise.resolve();
  }

  saveSettings(appId: string, settings: ApplicationSettings): Promise<void> {
    const app = this.apps.get(appId);
    if (!app) return Promise.reject(new Error(`application ${appId} does not exist`));
    this.apps.set(appId, { ...app, embedOrigins: [...settings.embedOrigins] });
    return Promise.resolve();
  }
}
