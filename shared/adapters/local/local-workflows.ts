import { sealExecutionName } from '#shared/adapters/aws/sfn-workflows.ts';
import { powertoolsLogger } from '#shared/adapters/powertools-logger.ts';
import type { Logger, WebhookRetryStart, Workflows } from '#shared/ports/services.ts';
import type { SealStart } from '#shared/background/workflow-schemas.ts';

/** Runs one execution of a named state machine to its end. */
export type ExecutionRunner = (input: object) => Promise<unknown>;

/**
 * Local stand-in for Step Functions: named executions run in the background, like on AWS, where an execution name is
 * used once: a second start of a name, running or finished, succeeded or failed, is a no-op. (A failed seal is
 * restarted by the seal sweep under the next round's name, as on AWS.)
 */
export class LocalWorkflows implements Workflows {
  private readonly running = new Map<string, Promise<void>>();
  private readonly used = new Set<string>();
  private readonly runners = new Map<string, ExecutionRunner>();
  private stopped = false;

  constructor(private readonly logger: Logger = powertoolsLogger()) {}

  /** Wires a state machine once the dependencies it runs on exist. */
  useRunner(stateMachine: string, runner: ExecutionRunner): void {
    this.runners.set(stateMachine, runner);
  }

  /** The local stack is stopping: no new executions, and the running ones may end in errors nobody needs to read. */
  stop(): void {
    this.stopped = true;
  }

  startSealing(envelopeId: string, round: number): Promise<void> {
    return this.start('seal-envelope', sealExecutionName(envelopeId, round), { envelopeId, round } satisfies SealStart);
  }

  startWebhookRetry(input: WebhookRetryStart): Promise<void> {
    return this.start('webhook-retry', `${input.deliveryId}-${String(input.attempt)}`, input);
  }

  /** Starts execution `name` of `stateMachine` (the local Step Functions engine calls it for StartExecution). */
  start(stateMachine: string, name: string, input: object): Promise<void> {
    const key = `${stateMachine}/${name}`;
    const runner = this.runners.get(stateMachine);
    if (!runner || this.stopped || this.used.has(key)) return Promise.resolve();
    this.used.add(key);
    const execution = runner(input).then(
      () => undefined,
      (error: unknown) => {
        if (this.stopped) return;
        this.logger.error('workflow execution failed', { stateMachine, name, error: (error as Error).message });
      },
    ).finally(() => this.running.delete(key));
    this.running.set(key, execution);
    return Promise.resolve();
  }
}
