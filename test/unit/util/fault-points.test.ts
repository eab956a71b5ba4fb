import { describe, expect, it } from 'vitest';
import { diskFullTarget, FAULTS_ARMED, faultPoint, parseFaultAt } from '../../../src/util/fault-points.js';

describe('PAYEXPORT_FAULT_AT', () => {
  it.each([
    ['report:xlsx:rows=500', { point: 'report:xlsx', facts: [['rows', '500']], action: 'kill' }],
    ['pull:page:pages=3@enospc', { point: 'pull:page', facts: [['pages', '3']], action: 'enospc' }],
    ['report:open:file=payments.csv@full', { point: 'report:open', facts: [['file', 'payments.csv']], action: 'full' }],
    ['report:xlsx:sheet=Summary check:rows=1', { point: 'report:xlsx', facts: [['sheet', 'Summary check'], ['rows', '1']], action: 'kill' }],
    ['report:publish', { point: 'report:publish', facts: [], action: 'kill' }],
  ])('%s', (spec, expected) => {
    const parsed = parseFaultAt(spec);
    expect({ point: parsed.point, facts: [...parsed.facts], action: parsed.action }).toEqual(expected);
  });

  it.each(['', '@kill', 'pull:page@explode', 'rows=5', 'pull:rows=5:page', 'Pull:Page', 'a@kill@kill'])('refuses %j', (spec) => {
    expect(() => parseFaultAt(spec)).toThrow(/PAYEXPORT_FAULT_AT/);
  });

  it('is inert when the variable is not set (the test process never sets it)', () => {
    expect(process.env.PAYEXPORT_FAULT_AT).toBeUndefined();
    expect(FAULTS_ARMED).toBe(false);
    expect(() => faultPoint('report:csv', { rows: 1_000_000, file: 'payments.csv' })).not.toThrow();
    expect(diskFullTarget('report:open', { file: 'payments.csv' })).toBeNull();
  });
});
