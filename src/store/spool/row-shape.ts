/**
 * Positional rows in the spool: the rows of a page share their keys — a payment row has
 * 46, written out as names on every line they were half of its text — so a page writes its keys
 * once, as a shape line, and each row as the JSON array of its values in that order.
 *
 * An amount column (a bigint in the shape's first row, within ±(2^53 − 1)) is marked `:n` in the
 * shape and written as a plain JSON integer — exact in that range — instead of a tagged string, so
 * neither side makes a tag or a string per amount (a payment row has a dozen). A later row whose
 * value there is neither such a bigint nor null takes a new shape line.
 *
 * On the bench's payment rows the line is about half as long; stringify of the values'
 * array about half the object's time, parse about two thirds. The decoded row is the object
 * JSON.parse gave for the object's text: the same keys in the same order, the same values (a row
 * whose keys cannot be a shape — not identifier-like, `__proto__`, a prototype other than Object's —
 * is written as an object, as before).
 *
 * A shape line is `!` then the JSON array of the keys. `!` is never the first character of a
 * line of rows (a hint holds only [A-Za-z0-9_.:-]).
 * Every page opens with its shape line, so a file cut back at a page's end (a resume) never leaves
 * rows whose shape line was cut off.
 */
const KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const AMOUNT = ':n';
const MAX_EXACT = 9007199254740991n;
export const SHAPE_MARK = 33; /* ! */

/** A value JSON.stringify writes under its key (it leaves out undefined, functions and symbols). */
function written(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function exactAmount(value: unknown): value is bigint {
  return typeof value === 'bigint' && value <= MAX_EXACT && value >= -MAX_EXACT;
}

function plainObject(row: object): boolean {
  const proto: unknown = Object.getPrototypeOf(row);
  return (proto === Object.prototype || proto === null) && typeof (row as { toJSON?: unknown }).toJSON !== 'function';
}

/** The keys of a page's rows, and which of them hold amounts written as plain integers. */
export class PageShape {
  private constructor(
    readonly keys: readonly string[],
    readonly amounts: readonly boolean[],
  ) {}

  /** The shape JSON.stringify would give `row`'s keys, in its order, or null when they cannot be one. */
  static of(row: object): PageShape | null {
    if (!plainObject(row)) return null;
    const keys: string[] = [];
    const amounts: boolean[] = [];
    // for…in lists own keys only here: the prototype is Object's (or none), which has no enumerable key
    for (const key in row) {
      if (!Object.prototype.hasOwnProperty.call(row, key)) return null;
      const value = (row as Record<string, unknown>)[key];
      if (!written(value)) continue;
      if (!KEY.test(key) || key === '__proto__') return null;
      keys.push(key);
      amounts.push(exactAmount(value));
    }
    return new PageShape(keys, amounts);
  }

  /** True when `row` writes exactly these keys, in this order, an amount (or null) under each amount key: a walk without allocation. */
  fits(row: object): boolean {
    if (!plainObject(row)) return false;
    const keys = this.keys;
    let i = 0;
    for (const key in row) {
      const value = (row as Record<string, unknown>)[key];
      if (!written(value)) continue;
      if (keys[i] !== key) return false;
      if (this.amounts[i] === true && value !== null && !exactAmount(value)) return false;
      i++;
    }
    return i === keys.length;
  }

  /** The row's values in the shape's order, amounts as numbers (exact: `fits` checked their range). */
  values(row: object): unknown[] {
    const keys = this.keys;
    const values = new Array<unknown>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const value = (row as Record<string, unknown>)[keys[i]!];
      values[i] = this.amounts[i] === true && value !== null ? Number(value as bigint) : value;
    }
    return values;
  }

  line(): string {
    return `!${JSON.stringify(this.keys.map((key, i) => (this.amounts[i] === true ? `${key}${AMOUNT}` : key)))}`;
  }
}

/** An amount written as a plain integer, back to its bigint. */
function amount(value: unknown): bigint | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new Error('corrupt spool line: an amount that is not an exact integer');
  return BigInt(value);
}

/** A shape read back: a builder that makes the row object from a values' array. */
export class RowShape {
  /**
   * One object literal per shape, compiled once: every row of the shape gets the same hidden class
   * at once (a loop of keyed stores cost more than the parse it saved). The keys are checked
   * identifiers, never `__proto__`, so the literal's text is exactly its keys.
   */
  private readonly make: (values: readonly unknown[], toAmount: typeof amount) => Record<string, unknown>;
  private readonly width: number;

  constructor(names: readonly string[]) {
    const keys = names.map((name) => (name.endsWith(AMOUNT) ? name.slice(0, -AMOUNT.length) : name));
    if (keys.some((key) => !KEY.test(key) || key === '__proto__') || new Set(keys).size !== keys.length) throw new Error('corrupt spool shape: a key that cannot be one');
    const fields = keys.map((key, i) => (names[i] === key ? `${key}: v[${i}]` : `${key}: n(v[${i}])`));
    this.make = new Function('v', 'n', `return {${fields.join(', ')}};`) as typeof this.make;
    this.width = keys.length;
  }

  build(values: unknown): Record<string, unknown> {
    if (!Array.isArray(values) || values.length !== this.width) throw new Error('corrupt spool line: its values do not fit its shape');
    return this.make(values, amount);
  }
}

const shapes = new Map<string, RowShape>();
const MAX_SHAPES = 64;

/** The shape of a shape line (`!["key",…]`), compiled once per process for each distinct line. */
export function readShapeLine(line: string): RowShape {
  const known = shapes.get(line);
  if (known) return known;
  let keys: unknown;
  try {
    keys = JSON.parse(line.slice(1));
  } catch {
    throw new Error('corrupt spool shape: its keys do not parse');
  }
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) throw new Error('corrupt spool shape: not a list of keys');
  const shape = new RowShape(keys as string[]);
  if (shapes.size >= MAX_SHAPES) shapes.clear();
  shapes.set(line, shape);
  return shape;
}
