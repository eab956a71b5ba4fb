/**
 * How a question session of `payexport init` ends before its last answer: Ctrl-C (exit 130, the
 * shells' 128 + SIGINT) or the end of the input — Ctrl-D, stdin from /dev/null, an answer file
 * that ends early (exit 64, naming the question left unanswered). Either is final: the caller
 * that checks answers must let it through, never ask again (prompter.ts).
 */
import { AppError } from '../util/errors.js';

export const INTERRUPTED = 'init_cancelled';
export const INPUT_ENDED = 'init_input_ended';

export function interrupted(): AppError {
  return new AppError('cancelled', INTERRUPTED, 'cancelled: nothing was written');
}

export function inputEnded(question: string): AppError {
  return new AppError('usage', INPUT_ENDED, `no answer to "${question}" (the input ended): nothing was written`);
}

/** Ctrl-C or the end of the input: the session is over, whatever question comes next. */
export function isPromptEnd(error: unknown): boolean {
  return error instanceof AppError && (error.type === INTERRUPTED || error.type === INPUT_ENDED);
}
