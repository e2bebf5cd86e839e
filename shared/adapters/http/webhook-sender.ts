import type { TargetCheck, WebhookSender, WebhookSendResult } from '#shared/ports/services.ts';
import { deliverWebhook } from '../../webhooks/webhook-delivery.ts';
import { checkTargetUrl } from '../../webhooks/webhook-target.ts';

/**
 * Webhooks over HTTPS with Node's http client: the target's addresses resolved, vetted and pinned at each send
 * (shared/webhooks/webhook-target.ts), one attempt cut at `timeoutMs`. `allowLoopback` (local mode only) lets plain
 * http://localhost through.
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly options: { timeoutMs: number; allowLoopback: boolean }) {}

  checkTarget(url: string): Promise<TargetCheck> {
    return Promise.resolve(checkTargetUrl(url, { allowLoopbackHttp: this.options.allowLoopback }));
  }

  send(request: { url: string; body: string; headers: Record<string, string> }): Promise<WebhookSendResult> {
    return deliverWebhook({ ...request, timeoutMs: this.options.timeoutMs, allowLoopback: this.options.allowLoopback });
  }
}
