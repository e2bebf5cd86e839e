/** A local stand-in for an AWS service, started by the local runtime. */
export interface RunningEngine {
  /** Base URL to hand to the AWS SDK client, e.g. `http://127.0.0.1:8000`. */
  readonly endpoint: string;
  /** Stops the engine; resolves once it is fully down. Safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * Where `ESIGN_NO_ENGINES` is set (the `unit` test project sets it to its name), starting an engine is a mistake:
 * it throws at once, naming the engine, instead of quietly starting a JVM or a server that the run was meant to avoid.
 */
export function refuseIfEnginesBarred(engine: string): void {
  const barredBy = process.env.ESIGN_NO_ENGINES;
  if (barredBy) {
    throw new Error(`${engine} may not start here (ESIGN_NO_ENGINES=${barredBy}): a test that starts an engine or reads the local stack belongs in the engines project (vitest.config.ts)`);
  }
}
