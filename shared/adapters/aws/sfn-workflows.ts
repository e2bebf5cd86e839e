import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand, type SFNClientConfig } from '@aws-sdk/client-sfn';
import type { WebhookRetryStart, Workflows } from '#shared/ports/services.ts';
import type { SealStart } from '#shared/background/workflow-schemas.ts';

/** The client this adapter runs on: built by shared/deps.ts when a function first starts a workflow. */
export const sfnClient = (config: SFNClientConfig) => new SFNClient(config);

/** Round 1 is named after the envelope (a second start of it is refused); a later round, started by the seal sweep, adds its number. */
export const sealExecutionName = (envelopeId: string, round: number) => (round <= 1 ? envelopeId : `${envelopeId}-${String(round)}`);

/** Step Functions: executions are named after what they work on, so a second start is refused and ignored. */
export class SfnWorkflows implements Workflows {
  constructor(private readonly sfn: SFNClient, private readonly arns: { seal: string; webhookRetry: string }) {}

  startSealing(envelopeId: string, round: number): Promise<void> {
    return this.start(this.arns.seal, sealExecutionName(envelopeId, round), { envelopeId, round } satisfies SealStart);
  }

  startWebhookRetry(input: WebhookRetryStart): Promise<void> {
    return this.start(this.arns.webhookRetry, `${input.deliveryId}-${String(input.attempt)}`, input);
  }

  private async start(stateMachineArn: string, name: string, input: object): Promise<void> {
    try {
      await this.sfn.send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists)) throw error;
    }
  }
}
