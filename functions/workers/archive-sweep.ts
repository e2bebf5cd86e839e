import { renewArchives, type ArchiveSweepResult } from '#shared/sealing/archive-renewal-actions.ts';
import { worker } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';

/**
 * Daily: every retained B-LTA sealed file whose last document timestamp's authority certificate expires within 90 days
 * gets a new document timestamp (a new revision, the old file an exact prefix); renewed files past their envelope's
 * deletion date are deleted (their lifecycle rule counts from the renewal).
 */
export const definition = worker({
  name: 'archive-sweep',
  trigger: { kind: 'schedule', everySeconds: 86_400 },
  // Reads and replaces sealed files (a staged new object, tagged for retention; the old one deleted by a job).
  access: {
    table: 'write', documents: { read: ['sealed/'], write: ['sealed/'], tag: ['sealed/'], delete: ['sealed/'] }, jobs: true, timestamps: true,
    memorySize: 1024, timeoutSeconds: 900,
  },
}, (deps) => (): Promise<ArchiveSweepResult> => renewArchives(deps));

export const handler = lambda(definition);
