import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; event: string; envelopeId: string; data: Record<string, unknown> } & Record<string, unknown>;
}

/** How the receiver answers the n-th request (0-based): a status code, or 'hang' to never answer. */
export type Behaviour = (n: number) => number | 'hang';

/** A real HTTP webhook receiver on loopback that records what it gets. */
export class Receiver {
  readonly received: Received[] = [];
  private server: Server | undefined;
  private count = 0;

  constructor(private behaviour: Behaviour = () => 200) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ headers: req.headers, body, json: JSON.parse(body) as Received['json'] });
        const answer = this.behaviour(this.count++);
        if (answer === 'hang') return;
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    return `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}/hook`;
  }

  answer(behaviour: Behaviour): void {
    this.behaviour = behaviour;
  }

  events(): string[] {
    return this.received.map((r) => r.json.event);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => { resolve(); }));
  }
}
