/**
 * MB/s of src/api/json.ts on realistic payments pages (100 items shaped like the OpenAPI example,
 * ~1.5 KB/item), against JSON.parse (lossy) and lossless-json (exact, slow).
 * Run: npx tsx bench/json-parse.bench.ts   (numbers vary ±15 % on the 2-core VM)
 */
import { parse as losslessParse, parseNumberAndBigInt } from 'lossless-json';
import { parseExact, parseJson } from '../src/api/json.js';

/** mulberry32: uniform hex digits, like real tx ids (which often hold a 16-digit run by chance). */
const hex = (n: number, seed: number): string => {
  let a = seed * 2654435761;
  let out = '';
  while (out.length < n) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out += (((t ^ (t >>> 14)) >>> 0) % 16).toString(16);
  }
  return out;
};
const uuid = (seed: number): string => {
  const h = hex(32, seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

function payment(i: number, bigAmount: boolean): Record<string, unknown> {
  const msats = bigAmount && i === 50 ? '2100000000000000001' : String(150_000_000 + i * 1_000);
  const amount = (value: string) => `{"amount": ${value}, "currency": "btc", "unit": "msats"}`;
  const text = `{"created_at": "2025-02-12T21:22:50.${String(30219 + i).padStart(6, '0')}Z", "currency": "btc", "data": {"address": "tb1pzkhtj4ld86g9c49du5yagnncfrm0s489t76vmrwmt2ecxfnf7spsvjte49", "amount": ${amount(msats)}, "amount_sats": ${150000 + i}, "fee_sats": 250, "fees": ${amount('250000')}, "label": "invoice ${i} for order 4411${i}", "market_quote": null, "max_fee": ${amount('1000000')}, "max_fee_sats": 1000, "outflows": [{"data": {"rail": "onchain", "receipt": {"data": {"amount_sats": 150000, "height_mined_at": 1888021, "is_pending": false, "ledger_id": "${uuid(i + 7)}", "mined_at": 1739395372, "required_confirmations_num": 1, "sanctioned_info": null, "tx_id": "${hex(64, i + 11)}"}, "type": "onchain"}, "step": "target_claimed"}, "type": "swap"}]}, "direction": "send", "environment_id": "${uuid(3)}", "error": null, "exchanges": [], "id": "${uuid(i + 100)}", "metadata": {"external_id": "ord_${i}", "tenant": "acme"}, "organization_id": "${uuid(2)}", "payment_breakdown": {"network_fee": ${amount('150000')}, "principal": ${amount(msats)}, "processing_fee": ${amount('100000')}}, "payment_category": "standard", "processing_fee": {"basis_points": 25, "amount": ${amount('100000')}}, "route": "swap", "status": "completed", "type": "onchain", "updated_at": "2025-02-12T21:23:03.173159Z", "wallet_id": "${uuid(4)}"}`;
  return JSON.parse(text.replace(msats === '2100000000000000001' ? /2100000000000000001/g : /$^/, '"BIG"')) as Record<string, unknown>;
}

function page(bigAmount: boolean, digitStrings: boolean): string {
  const items = Array.from({ length: 100 }, (_v, i) => {
    const p = payment(i, bigAmount);
    if (digitStrings) (p.data as Record<string, unknown>).label = `ref 123456789012345678901234 #${i}`;
    return JSON.stringify(p);
  });
  const text = `{"items": [${items.join(', ')}], "offset": 0, "limit": 100, "next_cursor": "${hex(40, 9)}", "has_more": true}`;
  return text.replace(/"BIG"/g, '2100000000000000001');
}

function measure(name: string, text: string, parse: (t: string) => unknown, targetMb: number): void {
  const bytes = Buffer.byteLength(text);
  const rounds = Math.max(1, Math.round((targetMb * 1e6) / bytes));
  for (let i = 0; i < Math.min(rounds, 20); i++) parse(text); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) parse(text);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`${name.padEnd(58)} ${((bytes * rounds) / 1e6 / seconds).toFixed(1).padStart(7)} MB/s  (${(bytes / 1024).toFixed(0)} KB page × ${rounds})`);
}

const plain = page(false, false);
const withBig = page(true, false);
const digitHeavy = page(false, true);
console.log(`page sizes: plain ${plain.length} B, with one big integer ${withBig.length} B`);
measure('JSON.parse (lossy), plain page', plain, JSON.parse, 100);
measure('parseJson, plain page (fast path)', plain, parseJson, 100);
measure('parseJson, long digit runs only inside strings (scan)', digitHeavy, parseJson, 100);
measure('parseJson, page with one integer > 2^53 (rewritten literals + JSON.parse)', withBig, parseJson, 40);
measure('parseExact always (exact parser), plain page', plain, parseExact, 40);
measure('lossless-json + parseNumberAndBigInt, page with big int', withBig, (t) => losslessParse(t, null, parseNumberAndBigInt), 20);
