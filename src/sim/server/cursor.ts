import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Micros } from '../core/time.js';
import { ApiError } from './api-error.js';

/**
 * Payments list cursors: stateless and opaque. A cursor carries the position after the last item
 * returned — (sort value, id) — plus the filters and sort it was issued for, signed with a key
 * derived from the dataset seed, so it survives a client (or simulator) restart and cannot be
 * forged. Following it with a different filter or sort is 400 `invalid_cursor` with context
 * `{field, recovery}` (OpenAPI `ApiErrorWithContext_PaymentErrorCursorContextType_CursorContext`).
 */

/** The filter and sort fields a cursor is bound to, canonicalized (name → text). */
export type CursorBinding = Record<string, string>;

export interface CursorPosition {
  key: Micros;
  id: string;
}

interface CursorBody {
  v: 1;
  b: CursorBinding;
  k: Micros;
  i: string;
}

const RECOVERY = 'Restart pagination without a cursor, or repeat the filters and sort of the first page unchanged';

export class CursorCodec {
  private readonly key: Buffer;

  constructor(seed: number) {
    this.key = createHmac('sha256', 'payexport-simulator-cursor').update(String(seed)).digest();
  }

  encode(binding: CursorBinding, position: CursorPosition): string {
    const body: CursorBody = { v: 1, b: binding, k: position.key, i: position.id };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The position of a cursor issued for exactly `binding`; 400 invalid_cursor otherwise. */
  decode(cursor: string, binding: CursorBinding): CursorPosition {
    const invalid = (field: string, detail: string): ApiError => new ApiError(400, 'invalid_cursor', detail, { context: { field, recovery: RECOVERY } });
    const [payload, signature, ...rest] = cursor.split('.');
    if (payload === undefined || signature === undefined || rest.length > 0) throw invalid('cursor', 'The cursor is malformed');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid('cursor', 'The cursor was not issued by this service');
    let body: CursorBody;
    try {
      body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorBody;
    } catch {
      throw invalid('cursor', 'The cursor is malformed');
    }
    const names = [...new Set([...Object.keys(body.b), ...Object.keys(binding)])].sort();
    for (const name of names) {
      if (body.b[name] !== binding[name]) throw invalid(name, `The cursor was issued for a different ${name}`);
    }
    return { key: body.k, id: body.i };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 22);
  }
}
