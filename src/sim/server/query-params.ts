import { isUuid } from '../core/ids.js';
import { parseMicros, type Micros } from '../core/time.js';
import { invalidParameter } from './api-error.js';

/**
 * Typed access to a query string as the service parses it (serde `Query`): unknown parameters are
 * ignored, a value that does not parse is a 400 `invalid_parameter`. Arrays are `name[]=a&name[]=b`
 * (also `name=a&name=b`); objects are deepObject `name[key]=value`.
 */
export class QueryParams {
  private readonly params: URLSearchParams;

  constructor(search: string) {
    this.params = new URLSearchParams(search);
  }

  has(name: string): boolean {
    return this.params.has(name);
  }

  string(name: string): string | undefined {
    const v = this.params.get(name);
    return v === null ? undefined : v;
  }

  uint32(name: string): number | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!/^\d{1,10}$/.test(v) || Number(v) > 0xffffffff) throw invalidParameter(name, 'expected an integer in [0, 4294967295]');
    return Number(v);
  }

  uuid(name: string): string | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!isUuid(v)) throw invalidParameter(name, 'expected a UUID');
    return v.toLowerCase();
  }

  instant(name: string): Micros | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    const us = parseMicros(v);
    if (us === null) throw invalidParameter(name, 'expected an RFC 3339 date-time');
    return us;
  }

  boolean(name: string): boolean | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (v !== 'true' && v !== 'false') throw invalidParameter(name, 'expected true or false');
    return v === 'true';
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v)) throw invalidParameter(name, `expected one of ${allowed.join(', ')}`);
    return v as T;
  }

  list<T extends string>(name: string, allowed: readonly T[]): T[] | undefined {
    const values = [...this.params.getAll(`${name}[]`), ...this.params.getAll(name)];
    if (values.length === 0) return undefined;
    for (const v of values) if (!(allowed as readonly string[]).includes(v)) throw invalidParameter(`${name}[]`, `expected values of ${allowed.join(', ')}`);
    return values as T[];
  }

  /** deepObject: `metadata[k]=v` pairs in the order given. */
  deepObject(name: string): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    const prefix = `${name}[`;
    for (const [key, value] of this.params) {
      if (key.startsWith(prefix) && key.endsWith(']') && key.length > prefix.length + 1) out.push([key.slice(prefix.length, -1), value]);
    }
    return out;
  }
}
