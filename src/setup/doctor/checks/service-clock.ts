/**
 * The service's clock against ours, from the `Date` header of one unauthenticated request (no
 * key is sent). Webhook deliveries carry a timestamp the listener accepts only within
 * `listen.toleranceSeconds` (±300 s by default) of its own clock, so a skew beyond that is a ✗:
 * every delivery would be refused as a replay. The header has whole seconds, and the half round
 * trip is the other uncertainty; both are far below the window.
 */
import { request } from 'undici';
import { fail, pass, type DoctorCheck } from '../check.js';

export interface ClockReading {
  /** service minus ours, in ms; positive: the service is ahead */
  skewMs: number;
  roundTripMs: number;
}

export async function readServiceClock(baseUrl: string, timeoutMs: number, now: () => number = Date.now): Promise<ClockReading> {
  const sent = now();
  // undici's request never follows a redirect: the answer of this host is the one read
  const response = await request(baseUrl, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const received = now();
  await response.body.dump();
  const header = response.headers['date'];
  const text = Array.isArray(header) ? header[0] : header;
  const serverMs = text === undefined ? Number.NaN : Date.parse(text);
  if (Number.isNaN(serverMs)) throw new Error('the service sent no Date header');
  // the header truncates to the second: its instant is on average half a second before the send
  return { skewMs: serverMs + 500 - (sent + received) / 2, roundTripMs: received - sent };
}

/** 900 → `15 minutes`, 42 → `42 seconds`: what a person reads, not `±900 s`. */
export function spokenDuration(seconds: number): string {
  const s = Math.abs(Math.round(seconds));
  if (s >= 3600 && s % 3600 === 0) return `${s / 3600} hour${s === 3600 ? '' : 's'}`;
  if (s >= 120) return `${Math.round(s / 60)} minutes`;
  return `${s} second${s === 1 ? '' : 's'}`;
}

export const serviceClockCheck: DoctorCheck = {
  id: 'service-clock',
  async run(ctx) {
    const { config } = ctx.loaded;
    const title = "the service's clock against this machine's";
    const windowS = config.listen.toleranceSeconds;
    let reading: ClockReading;
    try {
      reading = await readServiceClock(config.baseUrl, config.requestTimeoutMs);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return [fail(title, `no answer from ${new URL(config.baseUrl).host}${typeof code === 'string' ? ` (${code})` : ''}`, `check baseUrl (${config.baseUrl}) and this machine's network`)];
    }
    const skewS = Math.round(reading.skewMs / 1000);
    const said = skewS === 0 ? "within a second of this machine's" : `${spokenDuration(skewS)} ${skewS > 0 ? 'ahead of' : 'behind'} this machine's`;
    const window = `webhooks are accepted when their time stamp is within ${spokenDuration(windowS)} of this machine's clock`;
    if (Math.abs(reading.skewMs) > windowS * 1000) {
      return [fail(title, `the service's clock is ${said}: the listener would refuse every webhook (${window})`, "synchronize this machine's clock (timedatectl set-ntp true, or chrony/ntpd)")];
    }
    return [pass(title, `${said} (${window})`)];
  },
};
