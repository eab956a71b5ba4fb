/**
 * The generic webhook's body: the RunMessage itself as JSON (schema `payexport.run/v1`, documented
 * in docs/operations.md). The bytes returned are the bytes signed and sent, so a receiver verifies
 * exactly what it got.
 */
import type { RunMessage } from './run-message.js';

export function renderWebhookBody(message: RunMessage): string {
  return JSON.stringify(message);
}
