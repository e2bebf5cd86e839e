import { createServer, type Server } from 'node:net';

/** A port held by a listening server of our own, so an engine asked for it must fail to bind. */
export async function occupyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return { port: address.port, server };
}
