import { createServer } from 'node:net';

export type { RunningEngine } from './types.ts';

/** Asks the OS for a currently unused TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : undefined;
      server.close(() => {
        if (port === undefined) reject(new Error('freePort: could not read the listening port'));
        else resolve(port);
      });
    });
  });
}

/** True when `port` can be bound on `host` right now (0.0.0.0 also catches listeners on any single interface). */
export function isPortFree(port: number, host = '0.0.0.0'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => { resolve(false); });
    server.listen(port, host, () => server.close(() => { resolve(true); }));
  });
}
