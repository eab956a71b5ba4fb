import { describe, expect, it } from 'vitest';
import { Questions } from '../../../src/setup/init-questions.js';
import { inputEnded, interrupted, isPromptEnd } from '../../../src/setup/prompt-end.js';
import type { Prompter } from '../../../src/setup/prompter.js';
import { usageError } from '../../../src/util/errors.js';

/**
 * One answer of `init`: a given value first, then the terminal, then (under --yes) the default;
 * a refused answer asked again; the end of the session (Ctrl-C, the end of the input) never taken
 * for a refused answer — the loop of issue 38 was exactly that.
 */

function scripted(answers: Array<string | Error>): Prompter & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async ask(question, defaultAnswer) {
      asked.push(question);
      const next = answers.shift();
      if (next === undefined) throw inputEnded(question);
      if (next instanceof Error) throw next;
      return next === '' ? (defaultAnswer ?? '') : next;
    },
    async askSecret() {
      return '';
    },
    say: () => undefined,
    throwIfEnded: () => undefined,
    close: () => undefined,
  };
}

const accept = (a: { value: string; said: string }): string => {
  if (!/^\d+$/.test(a.value)) throw usageError('bad_option', `${a.said} '${a.value}' is not a number`);
  return a.value;
};

describe('Questions', () => {
  it('a given value first; a refused one is shown and the question asked, naming what was typed', async () => {
    const shown: string[] = [];
    const prompter = scripted(['x', '42']);
    const q = new Questions(prompter, (e) => shown.push((e as Error).message), () => undefined);
    const value = await q.until({ text: 'Number', what: 'number', given: [{ value: 'abc', name: '--number' }] }, accept);
    expect(value).toBe('42');
    expect(shown).toEqual(["--number 'abc' is not a number", "the number you typed 'x' is not a number"]);
    expect(prompter.asked).toEqual(['Number', 'Number']);
  });

  it('Ctrl-C and the end of the input end the session: thrown at once, never asked again', async () => {
    for (const end of [interrupted(), inputEnded('Number')]) {
      const prompter = scripted([end, '1']);
      const q = new Questions(prompter, () => undefined, () => undefined);
      await expect(q.until({ text: 'Number', what: 'number' }, accept)).rejects.toBe(end);
      expect(prompter.asked).toHaveLength(1);
      expect(isPromptEnd(end)).toBe(true);
    }
    expect(interrupted().exitCode).toBe(130);
    expect(inputEnded('Number').exitCode).toBe(64);
  });

  it('under --yes: the default, or a usage error naming the flag; a refusal ends the run', async () => {
    const q = new Questions(null, () => undefined, () => undefined);
    expect(await q.until({ text: 'Number', what: 'number', defaultAnswer: '7' }, accept)).toBe('7');
    await expect(q.until({ text: 'Number', what: 'number', given: [{ value: undefined, name: '--number' }] }, accept)).rejects.toThrow(/number is needed: pass it as --number/);
    await expect(q.until({ text: 'Number', what: 'number', given: [{ value: 'x', name: '--number' }] }, accept)).rejects.toThrow(/--number 'x' is not a number/);
  });

  it('yes or no', async () => {
    const q = new Questions(scripted(['maybe', 'N']), () => undefined, () => undefined);
    expect(await q.yesNo({ text: 'Books', what: 'books answer', defaultAnswer: 'yes' })).toBe(false);
  });
});
