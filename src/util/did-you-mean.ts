/**
 * "Did you mean …?": the closest of the known names to a mistyped one, for an unknown config key
 * (config/load.ts) and an unknown command-line option (cli/usage-failure.ts).
 */
/** The closest known key within a third of the key's length (at least 1, at most 3) edits. */
export function didYouMean(key: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.max(1, Math.floor(key.length / 3))) + 1;
  for (const candidate of candidates) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/**
 * For a command-line option: as didYouMean, or else the one known name the typed one begins
 * (`--form` → `--format`: two letters short, more than a third of four, yet what was meant).
 */
export function closestOption(typed: string, known: readonly string[]): string | undefined {
  const near = didYouMean(typed, known);
  if (near !== undefined) return near;
  const longer = typed.length >= 3 ? known.filter((name) => name.startsWith(typed.toLowerCase())) : [];
  return longer.length === 1 ? longer[0] : undefined;
}
