/** A local stand-in for an AWS service, started by the local runtime. */
export interface RunningEngine {
  /** Base URL to hand to the AWS SDK client, e.g. `http://127.0.0.1:8000`. */
  readonly endpoint: string;
  /** Stops the engine; resolves once it is fully down. Safe to call more than once. */
  stop(): Promise<void>;
}
