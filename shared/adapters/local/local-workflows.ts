import type { WebhookRetryStart, Workflows } from '#ports/services.ts';

/** Runs one execution of a named state machine to its end. */
export type ExecutionRunner = (input: object) => Promise<unknown>;

/**
 * Local stand-in for Step Functions: named executions run in the background, like on AWS. A start while the
 * same name runs, or after it succeeded, is a no-op; a failed one may be started again (an operator's re-run).
 */
export class LocalWorkflows implements Workflows {
  private readonly running = new Map<string, Promise<void>>();
  private readonly succeeded = new Set<string>();
  private readonly runners = new Map<string, ExecutionRunner>();
  private stopped = false;

  /** Wires a state machine once the dependencies it runs on exist. */
  useRunner(stateMachine: string, runner: ExecutionRunner): void {
    this.runners.set(stateMachine, runner);
  }

  /** The local stack is stopping: no new executions, and the running ones may end in errors nobody needs to read. */
  stop(): void {
    this.stopped = true;
  }

  startSealing(envelopeId: string): Promise<void> {
    return this.start('seal-envelope', envelopeId, { envelopeId });
  }

  startWebhookRetry(input: WebhookRetryStart): Promise<void> {
    return this.start('webhook-retry', `${input.deliveryId}-${String(input.attempt)}`, input);
  }

  /** Starts execution `name` of `stateMachine` (the local Step Functions engine calls it for StartExecution). */
  start(stateMachine: string, name: string, input: object): Promise<void> {
    const key = `${stateMachine}/${name}`;
    const runner = this.runners.get(stateMachine);
    if (!runner || this.stopped || this.running.has(key) || this.succeeded.has(key)) return Promise.resolve();
    const execution = runner(input).then(
      () => { this.succeeded.add(key); },
      (error: unknown) => {
        if (this.stopped) return;
        console.error(JSON.stringify({ level: 'error', msg: 'workflow execution failed', stateMachine, name, error: (error as Error).message }));
      },
    ).finally(() => this.running.delete(key));
    this.running.set(key, execution);
    return Promise.resolve();
  }
}
