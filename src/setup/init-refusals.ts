/**
 * A refused answer of `init`, said in terms of what the person did: "the key you typed", "the key
 * in PAYEXPORT_API_KEY", "--organization …" — never a variable or file they did not use (the jobs'
 * generic hints, cli/error-hints.ts, name every place a key can come from because a job cannot
 * know which one was meant). The service's own words stay in front; the exit code stays the
 * service's (77 for a refused key).
 */
import { ApiError } from '../api/errors.js';
import { AppError } from '../util/errors.js';
import type { AccessProblem } from './access-problem.js';

export interface RefusalFacts {
  problem: AccessProblem;
  /** where the key came from: `the key you typed (36 characters)`, `the key in PAYEXPORT_API_KEY` */
  keySaid: string;
  organization: { id: string; said: string };
  environment?: { id: string; said: string } | undefined;
  service: { baseUrl: string; said: string };
  /** the question comes again (at a terminal, for an answer that can be typed) */
  askAgain: boolean;
}

function what(facts: RefusalFacts): string {
  const again = facts.askAgain;
  switch (facts.problem) {
    case 'key':
      return `${facts.keySaid} was refused: ${again ? 'type the API key again (Ctrl-C stops)' : "use an API key of this organization's environment"}`;
    case 'organization':
      return `${facts.keySaid} cannot read organization ${facts.organization.id} (${facts.organization.said}): ${again ? 'type the organization id again' : 'check the id, and that the key belongs to it'}`;
    case 'environment':
      return `${facts.keySaid} cannot read environment ${facts.environment?.id ?? ''} (${facts.environment?.said ?? ''}): it belongs to another environment${again ? '; type the id of its own' : ''}`;
    case 'service':
      return `the service at ${facts.service.baseUrl} (${facts.service.said}) did not answer as the payments service does: ${again ? 'type the service again' : 'check the URL and this machine\'s network'}`;
  }
}

/** The error to show (and to ask again after), or to end the run with under --yes. */
export function refusal(error: unknown, facts: RefusalFacts): AppError {
  const message = error instanceof Error ? error.message : String(error);
  const exit = error instanceof AppError ? error.exit : 'unavailable';
  return new AppError(exit, `init_${facts.problem}_refused`, `${message} — ${what(facts)}`, { cause: error, ...(error instanceof ApiError ? { details: { status: error.status, type: error.type } } : {}) });
}

/** How a typed key is named without showing any of it. */
export function typedKeySaid(key: string): string {
  return `the key you typed (${[...key].length} characters)`;
}
