import { describe, expect, expectTypeOf, it } from 'vitest';
import { col, nullable, pickColumns, type Columns, type RowOf } from '../../../src/model/columns.js';
import { PAYMENT_COLUMNS, type PaymentRow } from '../../../src/model/rows.js';

const SAMPLE = {
  id: col.id(),
  amount_base: nullable(col.bigint()),
  status: col.text<'open' | 'done'>(),
  tags: col.textList(),
} as const;
type Sample = RowOf<typeof SAMPLE>;

describe('column declarations', () => {
  it('nullable keeps the kind and lets the field be null', () => {
    expect(SAMPLE.amount_base).toEqual({ kind: 'bigint', nullable: true });
    expect(SAMPLE.id).toEqual({ kind: 'id', nullable: false });
    expect(PAYMENT_COLUMNS.status_class).toEqual({ kind: 'text', nullable: false });
  });

  it('picks the named columns in the order named, as the same column objects', () => {
    const picked = pickColumns(PAYMENT_COLUMNS, ['status', 'payment_id', 'total_base']);
    expect(Object.keys(picked)).toEqual(['status', 'payment_id', 'total_base']);
    expect(picked.total_base).toBe(PAYMENT_COLUMNS.total_base);
  });

  it('derives the row type from the declaration, nullability and narrowed text included', () => {
    expectTypeOf<Sample>().toEqualTypeOf<{ id: string; amount_base: bigint | null; status: 'open' | 'done'; tags: string[] }>();
    expectTypeOf<PaymentRow['route']>().toEqualTypeOf<string | null>();
    expectTypeOf<PaymentRow['total_base']>().toEqualTypeOf<bigint | null>();
    // A field outside the declaration is not part of the row, and a non-null column refuses null.
    // @ts-expect-error not declared
    const extra: Sample = { id: 'a', amount_base: null, status: 'open', tags: [], note: 'x' };
    // @ts-expect-error id is not nullable
    const missing: Sample = { id: null, amount_base: null, status: 'open', tags: [] };
    expect([extra.id, missing.tags]).toEqual(['a', []]);
  });

  it('a column map for a row must name every field of it (the compiler checks; this shows the declaration passes)', () => {
    const full: Columns<Sample> = SAMPLE;
    // @ts-expect-error `tags` missing
    const partial: Columns<Sample> = { id: SAMPLE.id, amount_base: SAMPLE.amount_base, status: SAMPLE.status };
    expect(Object.keys(full)).toEqual(['id', 'amount_base', 'status', 'tags']);
    expect(Object.keys(partial)).toHaveLength(3);
  });
});
