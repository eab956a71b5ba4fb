/**
 * JSON lines for rows that hold bigints (amounts) and arbitrary hostile text (memos, metadata).
 * A bigint becomes the string `#n<digits>`; a real string that starts with `#` gets one more `#`.
 * The mapping is a bijection, so any row — including a metadata value of "#n5" — round-trips exactly.
 */

export function encodeRow(row: unknown): string {
  return JSON.stringify(row, (_key, value: unknown) => {
    if (typeof value === 'bigint') return `#n${value.toString()}`;
    if (typeof value === 'string' && value.startsWith('#')) return `#${value}`;
    return value;
  });
}

export function decodeRow<T>(line: string): T {
  return JSON.parse(line, (_key, value: unknown) => {
    if (typeof value !== 'string' || !value.startsWith('#')) return value;
    if (value.startsWith('##')) return value.slice(1);
    if (value.startsWith('#n')) return BigInt(value.slice(2));
    throw new Error(`corrupt spool value ${JSON.stringify(value.slice(0, 20))}`);
  }) as T;
}
