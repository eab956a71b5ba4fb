import { describe, expect, it } from 'vitest';
import { FaultController } from '../../../../src/sim/faults/fault-controller.js';
import { FaultSpecError, parseFaultSpec } from '../../../../src/sim/faults/fault-spec.js';

describe('fault spec grammar', () => {
  it('parses the documented example', () => {
    expect(parseFaultSpec('latency=50ms,503=0.05,500=0.02,429=0.02:retry-after=1,reset=0.01,truncate=0.01,dup=0.05,drip=0.01:2s')).toEqual({
      latencyMs: 50,
      rates: { '503': 0.05, '500': 0.02, '429': 0.02, reset: 0.01, truncate: 0.01, dup: 0.05, drip: 0.01 },
      retryAfterSeconds: 1,
      dripIntervalMs: 2000,
      schedule: [],
    });
  });

  it('parses ranges, seeds, path scopes and schedules', () => {
    expect(parseFaultSpec('latency=20-80ms,seed=7,paths=*/payments|*/ledger,first=3:503@*/payments,nth=2:reset,drip=1:10ms:64')).toEqual({
      latencyMs: [20, 80],
      seed: 7,
      paths: ['*/payments', '*/ledger'],
      rates: { drip: 1 },
      dripIntervalMs: 10,
      dripChunkBytes: 64,
      schedule: [
        { fault: '503', first: 3, path: '*/payments' },
        { fault: 'reset', nth: 2 },
      ],
    });
  });

  it.each(['503', '503=2', 'teapot=0.1', 'latency=fast', 'first=0:503', 'first=2:418', '500=0.1:retry-after=1', 'seed=x'])('rejects %s', (spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(FaultSpecError);
  });
});

describe('fault controller', () => {
  it('fails exactly the first N matching requests', () => {
    const faults = new FaultController('first=2:503@*/payments');
    const decisions = ['/v1/a/payments', '/v1/a/wallets', '/v1/a/payments', '/v1/a/payments'].map((p) => faults.decide('GET', p).fault);
    expect(decisions).toEqual(['503', null, '503', null]);
  });

  it('hits exactly the n-th matching request', () => {
    const faults = new FaultController({ schedule: [{ fault: 'reset', nth: 3, method: 'GET' }] });
    expect(Array.from({ length: 5 }, () => faults.decide('GET', '/v1/x').fault)).toEqual([null, null, 'reset', null, null]);
  });

  it('draws random faults from the seed: same seed and order, same faults; rate close to p', () => {
    const run = (): Array<string | null> => {
      const faults = new FaultController({ seed: 3, rates: { '503': 0.1 } });
      return Array.from({ length: 2000 }, () => faults.decide('GET', '/v1/x').fault);
    };
    const first = run();
    expect(run()).toEqual(first);
    const hits = first.filter((f) => f === '503').length;
    expect(hits).toBeGreaterThan(140);
    expect(hits).toBeLessThan(260);
  });

  it('scopes random faults to paths but adds latency everywhere, and can be switched at runtime', () => {
    const faults = new FaultController({ latencyMs: 25, rates: { '500': 1 }, paths: ['*/ledger'] });
    expect(faults.decide('GET', '/v1/w/ledger')).toEqual({ latencyMs: 25, fault: '500' });
    expect(faults.decide('GET', '/v1/w/payments')).toEqual({ latencyMs: 25, fault: null });
    faults.set(null);
    expect(faults.decide('GET', '/v1/w/ledger')).toEqual({ latencyMs: 0, fault: null });
  });
});
