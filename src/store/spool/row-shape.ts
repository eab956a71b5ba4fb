/**
 * Positional rows in the spool (issue 41): the rows of a page share their keys — a payment row has
 * 46, written out as names on every line they were half of its text — so a page writes its keys
 * once, as a shape line, and each row as the JSON array of its values in that order.
 *
 * Measured on bench payment rows (no raw): 1,399 → 708 characters a row; stringify of the values'
 * array about half the object's time, parse about two thirds. The decoded row is the object
 * JSON.parse gave for the object's text: the same keys in the same order, the same values (a row
 * whose keys cannot be a shape — not identifier-like, `__proto__`, a prototype other than Object's —
 * is written as an object, as before).
 *
 * A shape line is `!` then the JSON array of the keys. `!` is never the first character of a
 * line of rows (a hint holds only [A-Za-z0-9_.:-], a line of the format before starts with `{`).
 * Every page opens with its shape line, so a file cut back at a page's end (a resume) never leaves
 * rows whose shape line was cut off.
 */
const KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
export const SHAPE_MARK = 33; /* ! */

/** A value JSON.stringify writes under its key (it leaves out undefined, functions and symbols). */
function written(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

/** The keys JSON.stringify would write for `row`, in its order, or null when they cannot be a shape. */
export function shapeKeysOf(row: object): string[] | null {
  const proto: unknown = Object.getPrototypeOf(row);
  if ((proto !== Object.prototype && proto !== null) || typeof (row as { toJSON?: unknown }).toJSON === 'function') return null;
  const keys: string[] = [];
  // for…in lists own keys only here: the prototype is Object's, which has no enumerable key
  for (const key in row) {
    if (!Object.prototype.hasOwnProperty.call(row, key)) return null;
    if (!written((row as Record<string, unknown>)[key])) continue;
    if (!KEY.test(key) || key === '__proto__') return null;
    keys.push(key);
  }
  return keys;
}

/** True when `row` writes exactly `keys`, in that order (the page's shape): a walk without allocation. */
export function hasShape(row: object, keys: readonly string[]): boolean {
  const proto: unknown = Object.getPrototypeOf(row);
  if ((proto !== Object.prototype && proto !== null) || typeof (row as { toJSON?: unknown }).toJSON === 'function') return false;
  let i = 0;
  for (const key in row) {
    const value = (row as Record<string, unknown>)[key];
    if (!written(value)) continue;
    if (keys[i] !== key) return false;
    i++;
  }
  return i === keys.length;
}

/** The row's values in the shape's order. */
export function valuesOf(row: object, keys: readonly string[]): unknown[] {
  const values = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) values[i] = (row as Record<string, unknown>)[keys[i]!];
  return values;
}

export function shapeLine(keys: readonly string[]): string {
  return `!${JSON.stringify(keys)}`;
}

/** A shape read back: its keys, and a builder that makes the row object from a values' array. */
export class RowShape {
  /**
   * One object literal per shape, compiled once: every row of the shape gets the same hidden class
   * at once (a loop of keyed stores cost more than the parse it saved). The keys are checked
   * identifiers, never `__proto__`, so the literal's text is exactly its keys.
   */
  private readonly make: (values: readonly unknown[]) => Record<string, unknown>;

  constructor(readonly keys: readonly string[]) {
    if (keys.some((key) => !KEY.test(key) || key === '__proto__') || new Set(keys).size !== keys.length) throw new Error('corrupt spool shape: a key that cannot be one');
    this.make = new Function('v', `return {${keys.map((key, i) => `${key}: v[${i}]`).join(', ')}};`) as (values: readonly unknown[]) => Record<string, unknown>;
  }

  build(values: unknown): Record<string, unknown> {
    if (!Array.isArray(values) || values.length !== this.keys.length) throw new Error('corrupt spool line: its values do not fit its shape');
    return this.make(values);
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
