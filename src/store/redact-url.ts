/**
 * A database URL safe to print: the password (and any `password=` query parameter) replaced by
 * `***`. Used in every message that names the database (docs/reliability.md#secrets: secrets never
 * reach logs or errors). Unparseable input is not echoed at all, because it may be all secret.
 */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '<unparseable database URL>';
  }
  if (parsed.password !== '') parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) {
    if (/pass|secret|sslkey/i.test(key)) parsed.searchParams.set(key, '***');
  }
  return parsed.toString();
}
