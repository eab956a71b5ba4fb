/**
 * Fees by wallet and rail, for people who would rather look than read: the rollup feeds the
 * Overview sheet (in-cell data bars) and `fees.html`, a self-contained page with one horizontal
 * bar chart per currency (inline SVG, no script, no external resources; opens in any browser and
 * prints). Bar lengths are computed in bigint — no float touches an amount.
 */
import type { FeeRow } from '../model/results.js';
import { formatBase, groupThousands } from '../money/format.js';
import { displayCurrency, displayScale } from '../money/units.js';
import type { SpecContext } from '../model/column-spec.js';

export interface FeeBar {
  currency: string;
  wallet_id: string;
  /** the rail: bolt11, onchain, ... (FeeRow.kind) */
  rail: string;
  payments: number;
  network_fee_base: bigint;
  processing_fee_base: bigint;
}

/**
 * Fees per currency by who paid them (docs/journal.md): a send's network and processing fees are
 * the company's, its expense; a receive's processing fee is paid by the payer on top of what they
 * send and never reaches the wallet.
 */
export interface FeeSplit {
  currency: string;
  sends: number;
  receives: number;
  companyNetwork: bigint;
  companyProcessing: bigint;
  payersNetwork: bigint;
  payersProcessing: bigint;
}

/** Accumulates fees.csv rows into wallet × rail × currency bars (bounded by wallets × rails) and into who paid per currency. */
export class FeePicture {
  private readonly bars = new Map<string, FeeBar>();
  private readonly split = new Map<string, FeeSplit>();

  add(row: FeeRow): void {
    let s = this.split.get(row.currency);
    if (s === undefined) {
      s = { currency: row.currency, sends: 0, receives: 0, companyNetwork: 0n, companyProcessing: 0n, payersNetwork: 0n, payersProcessing: 0n };
      this.split.set(row.currency, s);
    }
    if (row.direction === 'send') {
      s.sends += row.payments;
      s.companyNetwork += row.network_fee_base;
      s.companyProcessing += row.processing_fee_base;
    } else {
      s.receives += row.payments;
      s.payersNetwork += row.network_fee_base;
      s.payersProcessing += row.processing_fee_base;
    }
    const key = `${row.currency}\u0000${row.wallet_id}\u0000${row.kind}`;
    let bar = this.bars.get(key);
    if (bar === undefined) {
      bar = { currency: row.currency, wallet_id: row.wallet_id, rail: row.kind, payments: 0, network_fee_base: 0n, processing_fee_base: 0n };
      this.bars.set(key, bar);
    }
    bar.payments += row.payments;
    bar.network_fee_base += row.network_fee_base;
    bar.processing_fee_base += row.processing_fee_base;
  }

  /** Bars grouped by currency (sorted), each group sorted by wallet then rail. */
  groups(): { currency: string; bars: FeeBar[] }[] {
    const byCurrency = new Map<string, FeeBar[]>();
    for (const bar of this.bars.values()) {
      const list = byCurrency.get(bar.currency) ?? [];
      list.push(bar);
      byCurrency.set(bar.currency, list);
    }
    const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    return [...byCurrency.entries()]
      .sort(([a], [b]) => cmp(a, b))
      .map(([currency, bars]) => ({ currency, bars: bars.sort((x, y) => cmp(x.wallet_id, y.wallet_id) || cmp(x.rail, y.rail)) }));
  }

  /** Who paid, per currency: btc, usd, then assets by id. */
  splits(): FeeSplit[] {
    const rank = (c: string): string => (c === 'btc' ? '0' : c === 'usd' ? '1' : `2${c}`);
    return [...this.split.values()].sort((a, b) => (rank(a.currency) < rank(b.currency) ? -1 : rank(a.currency) > rank(b.currency) ? 1 : 0));
  }
}

export function totalFees(bar: FeeBar): bigint {
  return bar.network_fee_base + bar.processing_fee_base;
}

const BAR_MAX_PX = 360n;
const NETWORK_COLOR = '#93c5fd';
const PROCESSING_COLOR = '#2563eb';
// presentation attributes rather than CSS classes: the SVG stays correct when copied out of the page
const TEXT_ATTRS = 'font-size="12" fill="#374151" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace"';

/** `value / max` of the bar width in whole pixels (floor), 0 for max ≤ 0. */
export function barPixels(value: bigint, max: bigint): number {
  if (max <= 0n || value <= 0n) return 0;
  return Number((value * BAR_MAX_PX) / max);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

export interface FeesHtmlMeta {
  title: string;
  subtitle: string;
}

/** fees.html (see file comment). Deterministic for the same input. */
export function renderFeesHtml(picture: FeePicture, meta: FeesHtmlMeta, ctx: SpecContext): string {
  const groups = picture.groups();
  const sections = groups.map(({ currency, bars }) => {
    const scale = displayScale(currency, ctx.assetDecimals);
    const code = displayCurrency(currency, ctx.assetNames);
    const show = (base: bigint): string => (scale === null ? `${groupThousands(base.toString())} base units` : groupThousands(formatBase(base, scale)));
    const max = bars.reduce((m, b) => (totalFees(b) > m ? totalFees(b) : m), 0n);
    const sum = bars.reduce((s, b) => s + totalFees(b), 0n);
    const rowHeight = 26;
    const labelWidth = 230;
    const height = bars.length * rowHeight + 8;
    const rows = bars
      .map((b, i) => {
        const y = i * rowHeight + 4;
        const net = barPixels(b.network_fee_base, max);
        const proc = Math.max(0, barPixels(totalFees(b), max) - net);
        const name = ctx.walletNames?.get(b.wallet_id);
        const label = `${name === undefined ? `${b.wallet_id.slice(0, 8)}…` : name.length > 18 ? `${name.slice(0, 17)}…` : name} · ${b.rail}`;
        return [
          `<g><title>${escapeHtml(`wallet ${name === undefined ? '' : `${name} `}${b.wallet_id}, rail ${b.rail}: ${b.payments} payments, network fee ${show(b.network_fee_base)} ${code}, processing fee ${show(b.processing_fee_base)} ${code}`)}</title>`,
          `<text x="0" y="${y + 16}" ${TEXT_ATTRS}>${escapeHtml(label)}</text>`,
          `<rect x="${labelWidth}" y="${y + 3}" width="${net}" height="16" fill="${NETWORK_COLOR}"/>`,
          `<rect x="${labelWidth + net}" y="${y + 3}" width="${proc}" height="16" fill="${PROCESSING_COLOR}"/>`,
          `<text x="${labelWidth + net + proc + 6}" y="${y + 16}" ${TEXT_ATTRS}>${escapeHtml(`${show(totalFees(b))} ${code}`)}</text></g>`,
        ].join('');
      })
      .join('\n');
    return [
      `<section>`,
      `<h2>${escapeHtml(code)} <span class="sum">total fees ${escapeHtml(show(sum))} ${escapeHtml(code)}</span></h2>`,
      `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + Number(BAR_MAX_PX) + 200}" height="${height}" role="img" aria-label="${escapeHtml(`fees by wallet and rail in ${code}`)}">`,
      rows,
      `</svg>`,
      `</section>`,
    ].join('\n');
  });
  const body = sections.length > 0 ? sections.join('\n') : '<p class="empty">No completed payments with fees in this window.</p>';
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8"/>',
    `<title>${escapeHtml(meta.title)}</title>`,
    '<style>',
    'body{font-family:-apple-system,"Segoe UI",Roboto,"DejaVu Sans",Arial,sans-serif;margin:2rem;color:#1f2937}',
    'h1{font-size:1.4rem;margin:0}p.sub{color:#6b7280;margin:.3rem 0 1.5rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}',
    '.sum{font-weight:normal;color:#6b7280;font-size:.9rem;margin-left:.5rem}',
    '.legend span{display:inline-block;width:12px;height:12px;margin:0 .3rem 0 1rem;vertical-align:middle}',
    '</style>',
    '</head>',
    '<body>',
    `<h1>${escapeHtml(meta.title)}</h1>`,
    `<p class="sub">${escapeHtml(meta.subtitle)}</p>`,
    `<p class="legend">Fees of completed payments by wallet and rail:<span style="background:${NETWORK_COLOR}"></span>network fee<span style="background:${PROCESSING_COLOR}"></span>processing fee</p>`,
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
