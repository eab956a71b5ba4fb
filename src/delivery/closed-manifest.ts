/** Whether a delivered manifest says its period is closed: such a folder is never replaced at the far end. */
const CLOSED_STATES = new Set(['closed', 'closed_with_open_items']);

export function closedPeriod(manifestBytes: Buffer): boolean {
  try {
    const state = (JSON.parse(manifestBytes.toString('utf8')) as { close?: { state?: unknown } }).close?.state;
    return typeof state === 'string' && CLOSED_STATES.has(state);
  } catch {
    return false;
  }
}
