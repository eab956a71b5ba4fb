/**
 * One HTTP POST with a hard deadline (connect, headers and body all inside it); the answer's body
 * is read up to 2 KiB, enough for a server's error words. No redirects are followed: a notification
 * endpoint that redirects is misconfigured, and following one could carry a signed body elsewhere.
 */
import { request } from 'undici';
import { DeliveryError, httpFailure, networkFailure } from '../util/delivery-error.js';

const MAX_ANSWER_BYTES = 2048;

export interface PostInput {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export async function httpPost(input: PostInput): Promise<{ status: number; body: string }> {
  const host = safeHost(input.url);
  const deadline = AbortSignal.timeout(input.timeoutMs);
  try {
    const answer = await request(input.url, {
      method: 'POST',
      body: input.body,
      headers: { 'user-agent': 'payexport-notify', 'content-length': String(Buffer.byteLength(input.body)), ...input.headers },
      signal: deadline,
      headersTimeout: input.timeoutMs,
      bodyTimeout: input.timeoutMs,
    });
    let text = '';
    for await (const chunk of answer.body) {
      if (text.length < MAX_ANSWER_BYTES) text += (chunk as Buffer).toString('utf8');
    }
    text = text.slice(0, MAX_ANSWER_BYTES);
    if (answer.statusCode < 200 || answer.statusCode >= 300) {
      const retryAfter = answer.headers['retry-after'];
      throw httpFailure(answer.statusCode, text, host, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
    }
    return { status: answer.statusCode, body: text };
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    throw networkFailure(error, host, deadline.aborted, input.timeoutMs);
  }
}

/** host[:port] of a URL, for messages (the path and query of a Slack or ping URL are its secret). */
export function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
}
