/**
 * A string that holds its own characters. V8 returns a substring of 13 characters or more as a
 * view into its parent (a "sliced string"). The exact JSON parser (api/json.ts's fallback) hands
 * out such views of the text it parsed — an id kept from such a page keeps the whole response body
 * alive (hundreds of KB for a page of payments) — and the spool's line hints are views of their
 * line's text: an id kept from them keeps the line (the whole file, when files were decoded whole). (JSON.parse, the common path, makes flat strings.) Anything that keeps ids
 * for the length of a chain or a run (a sweep's seen set, the spool's known payment ids) stores
 * this copy instead (docs/extraction.md "Page size": measured, 100k payments in the spool held every
 * page body they had seen through their ids).
 */
export function ownCopy(text: string): string {
  // a round trip through bytes: the new string is flat and refers to nothing else
  return Buffer.from(text, 'utf8').toString('utf8');
}
