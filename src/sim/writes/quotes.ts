import { formatMicros, nowMicros, US_PER_SECOND, type Micros } from '../core/time.js';
import { centsToMsats, formatRate, msatsToCentsCeil, type Rate } from '../dataset/fees.js';
import { amountOf } from '../dataset/render-payment.js';
import { rateAt } from '../dataset/payment-core.js';

/**
 * Quotes for USD wallets (POST/GET …/environments/{env}/quotes; OpenAPI `NewQuoteRequest`,
 * `QuotingRead`). A quote converts `amount` into `to` at a market rate, expires after 60 s and is
 * single use: consuming it twice is 400 `invalid_quote`.
 */
export interface QuoteRecord {
  id: string;
  environmentIndex: number;
  walletId: string | null;
  lineOfCreditId: string;
  network: string;
  from: { currency: string; amount: bigint };
  to: string;
  converted: bigint;
  rate: Rate;
  requestedUs: Micros;
  expiresUs: Micros;
  consumedUs: Micros | null;
}

export const QUOTE_TTL_US = 60 * US_PER_SECOND;

export class QuoteBook {
  private readonly quotes = new Map<string, QuoteRecord>();
  private counter = 0;

  constructor(private readonly seed: number) {}

  get(id: string): QuoteRecord | undefined {
    return this.quotes.get(id.toLowerCase());
  }

  list(environmentIndex: number): QuoteRecord[] {
    return [...this.quotes.values()].filter((q) => q.environmentIndex === environmentIndex);
  }

  create(input: { id: string; environmentIndex: number; lineOfCreditId: string; network: string; amount: { currency: string; amount: bigint }; to: string }): QuoteRecord {
    const now = nowMicros();
    const rate = rateAt(this.seed, 0x7fff_0000 + this.counter++, now);
    const converted =
      input.amount.currency === 'usd' && input.to === 'btc'
        ? centsToMsats(input.amount.amount, rate)
        : input.amount.currency === 'btc' && input.to === 'usd'
          ? msatsToCentsCeil(input.amount.amount, rate)
          : input.amount.amount;
    const record: QuoteRecord = {
      id: input.id.toLowerCase(),
      environmentIndex: input.environmentIndex,
      walletId: null,
      lineOfCreditId: input.lineOfCreditId,
      network: input.network,
      from: input.amount,
      to: input.to,
      converted,
      rate,
      requestedUs: now,
      expiresUs: now + QUOTE_TTL_US,
      consumedUs: null,
    };
    this.quotes.set(record.id, record);
    return record;
  }

  consume(id: string, walletId: string): void {
    const q = this.get(id);
    if (q) {
      q.consumedUs = nowMicros();
      q.walletId = walletId;
    }
  }

  render(q: QuoteRecord, organizationId: string): Record<string, unknown> {
    return {
      id: q.id,
      amount: amountOf(q.from.currency, q.from.amount),
      to: q.to,
      network: q.network,
      organization_id: organizationId,
      wallet_id: q.walletId,
      target_precision: null,
      requested_at: formatMicros(q.requestedUs),
      quote: { type: 'market_rate', detail: { from: q.from.currency, to: q.to, rate: formatRate(q.rate), quoted_at: formatMicros(q.requestedUs), expires_at: formatMicros(q.expiresUs) } },
      created_at: formatMicros(q.requestedUs),
      consumed_at: q.consumedUs === null ? null : formatMicros(q.consumedUs),
      expires_at: formatMicros(q.expiresUs),
      failed_at: null,
      error: null,
    };
  }
}
