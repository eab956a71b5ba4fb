/**
 * How `init` gets one answer: from a flag or a variable when given, else from the person at the
 * terminal (with its default), else under `--yes` from the default alone. A refused answer is
 * shown as one line and asked again at a terminal; under `--yes` it ends the run with its exit
 * code. Ctrl-C and the end of the input end the session whatever question comes next: they are
 * never taken for a refused answer (prompt-end.ts), so a closed terminal cannot make a loop.
 *
 * Each answer knows where it came from, so an error names what the person did — "the time zone
 * you typed", "--tz", "PAYEXPORT_TZ" — never a flag they did not use.
 */
import { usageError } from '../util/errors.js';
import { isPromptEnd } from './prompt-end.js';
import type { Prompter } from './prompter.js';

/** A value given before any question: a flag's or a variable's, with its name. */
export interface Given {
  value: string | undefined;
  /** `--tz`, `PAYEXPORT_TZ` */
  name: string;
}

/** An answer and the words that name it in a message: `--tz`, or `the time zone you typed`. */
export interface Answer {
  value: string;
  said: string;
  typed: boolean;
}

export interface Question {
  text: string;
  /** what the answer is, in a message: `the time zone` */
  what: string;
  defaultAnswer?: string | undefined;
  given?: readonly Given[];
}

export class Questions {
  constructor(
    private readonly prompter: Prompter | null,
    private readonly showError: (error: unknown) => void,
    private readonly print: (line: string) => void,
  ) {}

  get interactive(): boolean {
    return this.prompter !== null;
  }

  /** The first given value, else asked, else (under --yes) the default. */
  async answer(question: Question, skipGiven = false): Promise<Answer> {
    const given = skipGiven ? undefined : question.given?.find((g) => g.value !== undefined && g.value !== '');
    if (given !== undefined) return { value: given.value as string, said: given.name, typed: false };
    if (this.prompter !== null) {
      const value = await this.prompter.ask(question.text, question.defaultAnswer);
      return { value, said: value === question.defaultAnswer ? `the default ${question.what}` : `the ${question.what} you typed`, typed: true };
    }
    if (question.defaultAnswer !== undefined) return { value: question.defaultAnswer, said: `the default ${question.what}`, typed: false };
    const flag = question.given?.[0]?.name;
    throw usageError('init_missing_answer', `${question.what} is needed: pass it${flag === undefined ? '' : ` as ${flag}`}, or run init at a terminal without --yes`);
  }

  /** A refused answer: shown, then asked again at a terminal; the end of the run under --yes. */
  refused(error: unknown): void {
    if (this.prompter === null || isPromptEnd(error)) throw error;
    this.showError(error);
  }

  /** The first answer `accept` takes: a given value first, then what is typed, until one passes. */
  async until<T>(question: Question, accept: (answer: Answer) => Promise<T> | T): Promise<T> {
    let skipGiven = false;
    for (;;) {
      try {
        return await accept(await this.answer(question, skipGiven));
      } catch (error) {
        this.refused(error);
        skipGiven = true;
      }
    }
  }

  /** yes or no, with its default. */
  async yesNo(question: Question): Promise<boolean> {
    return this.until(question, ({ value, said }) => {
      const word = value.trim().toLowerCase();
      if (['y', 'yes', 'true', '1'].includes(word)) return true;
      if (['n', 'no', 'false', '0'].includes(word)) return false;
      throw usageError('bad_option', `${said} '${value.slice(0, 40)}': answer yes or no`);
    });
  }

  say(line: string): void {
    this.print(line);
  }
}
