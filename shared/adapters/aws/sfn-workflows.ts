import { ExecutionAlreadyExists, StartExecutionCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { Workflows } from '#ports/services.ts';

/** Step Functions: the execution is named after the envelope, so a second start is refused and ignored. */
export class SfnWorkflows implements Workflows {
  constructor(private readonly sfn: SFNClient, private readonly sealStateMachineArn: string) {}

  async startSealing(envelopeId: string): Promise<void> {
    try {
      await this.sfn.send(new StartExecutionCommand({
        stateMachineArn: this.sealStateMachineArn, name: envelopeId, input: JSON.stringify({ envelopeId }),
      }));
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists)) throw error;
    }
  }
}
