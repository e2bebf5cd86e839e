import type { Workflows } from '#ports/services.ts';

/**
 * Local stand-in for Step Functions executions: one execution per envelope (a second start is a no-op, as
 * with a named execution). `runner` runs it; until the sealing workflow exists the request is only recorded.
 */
export class LocalWorkflows implements Workflows {
  readonly sealingStarted = new Set<string>();

  constructor(private readonly runner: ((envelopeId: string) => Promise<void>) | null = null) {}

  async startSealing(envelopeId: string): Promise<void> {
    if (this.sealingStarted.has(envelopeId)) return;
    this.sealingStarted.add(envelopeId);
    if (this.runner) await this.runner(envelopeId);
  }
}
