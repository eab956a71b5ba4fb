/**
 * Faults of the simulator's webhook deliveries (docs/simulator.md "Delivery faults"), in the
 * same spirit as the API fault grammar (fault-spec.ts), for the listener's tests:
 *
 *   SPEC := RULE ("," RULE)*
 *   RULE := "drop=" P          the delivery is never sent (recorded as failed; the retry endpoint resends it)
 *         | "dup=" P           sent twice
 *         | "reorder=" P       held back `reorder-ms` (default 300) so later deliveries overtake it
 *         | "reorder-ms=" DUR
 *         | "delay=" DUR       added before every attempt
 *         | "badsig=" P        an attempt signed with a wrong secret (its retry is signed correctly)
 *         | "seed=" INT
 *
 * Secret rotation is the keys endpoint (POST …/webhooks/{id}/keys): from then on deliveries are
 * signed with the new secret only.
 */
import { FaultSpecError } from './fault-spec.js';

export interface DeliveryFaultConfig {
  seed?: number;
  drop?: number;
  dup?: number;
  reorder?: number;
  reorderMs?: number;
  delayMs?: number;
  badSignature?: number;
}

function probability(text: string, rule: string): number {
  const p = Number(text);
  if (text.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) throw new FaultSpecError(`bad probability in ${JSON.stringify(rule)} (expected 0..1)`);
  return p;
}

function duration(text: string, rule: string): number {
  const m = /^(\d+)(ms|s)?$/.exec(text.trim());
  if (!m) throw new FaultSpecError(`bad duration in ${JSON.stringify(rule)}`);
  return m[2] === 's' ? Number(m[1]) * 1000 : Number(m[1]);
}

export function parseDeliveryFaults(spec: string): DeliveryFaultConfig {
  const config: DeliveryFaultConfig = {};
  for (const raw of spec.split(',')) {
    const rule = raw.trim();
    if (rule === '') continue;
    const [name = '', value = ''] = rule.split('=', 2).map((s) => s.trim());
    switch (name) {
      case 'drop':
        config.drop = probability(value, rule);
        break;
      case 'dup':
        config.dup = probability(value, rule);
        break;
      case 'reorder':
        config.reorder = probability(value, rule);
        break;
      case 'reorder-ms':
        config.reorderMs = duration(value, rule);
        break;
      case 'delay':
        config.delayMs = duration(value, rule);
        break;
      case 'badsig':
        config.badSignature = probability(value, rule);
        break;
      case 'seed':
        if (!/^\d+$/.test(value)) throw new FaultSpecError(`bad seed in ${JSON.stringify(rule)}`);
        config.seed = Number(value);
        break;
      default:
        throw new FaultSpecError(`unknown delivery fault ${JSON.stringify(name)} (one of drop, dup, reorder, reorder-ms, delay, badsig, seed)`);
    }
  }
  return config;
}

// the generator lives with the simulator's other random numbers; re-exported for the webhook writer
export { seededRandom } from '../core/prng.js';
