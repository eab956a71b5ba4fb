/**
 * Questions at a terminal, for `payexport init`: one readline interface for the whole session
 * (several interfaces over one piped stdin lose what the first one buffered), and a secret typed
 * WITHOUT echo — readline's output goes through a stream that is muted while the key is typed, so
 * not one character of it reaches the screen, the scrollback or a terminal recording.
 */
import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';
import { AppError } from '../util/errors.js';

export interface Prompter {
  /** the answer, trimmed; the default when the answer is empty */
  ask(question: string, defaultAnswer?: string): Promise<string>;
  /** a secret, typed without echo */
  askSecret(question: string): Promise<string>;
  say(line: string): void;
  close(): void;
}

/** readline's output: the terminal, except while a secret is typed. */
class MutableOutput extends Writable {
  muted = false;
  constructor(private readonly target: NodeJS.WritableStream & { columns?: number; isTTY?: boolean }) {
    super();
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (!this.muted) this.target.write(chunk);
    done();
  }
  /** readline wraps its line editing at the terminal's width */
  get columns(): number | undefined {
    return this.target.columns;
  }
  get isTTY(): boolean | undefined {
    return this.target.isTTY;
  }
}

export function terminalPrompter(input: NodeJS.ReadableStream & { isTTY?: boolean }, output: NodeJS.WritableStream & { columns?: number; isTTY?: boolean }): Prompter {
  const muted = new MutableOutput(output);
  const rl: Interface = createInterface({ input, output: muted, terminal: input.isTTY === true });
  let pending: ((error: Error) => void) | null = null;
  const cancelled = (why: string): AppError => new AppError('usage', 'init_cancelled', `${why}: nothing was written`);
  // Ctrl-C at a question: readline would only pause the input, leaving the question unanswered.
  rl.on('SIGINT', () => {
    pending?.(cancelled('cancelled'));
    rl.close();
  });
  rl.on('close', () => pending?.(cancelled('no answer (input ended)')));

  const question = (text: string): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      pending = reject;
      rl.question(text, (answer) => {
        pending = null;
        resolve(answer);
      });
    });

  return {
    async ask(text, defaultAnswer) {
      const answer = (await question(defaultAnswer === undefined || defaultAnswer === '' ? `${text}: ` : `${text} [${defaultAnswer}]: `)).trim();
      return answer === '' ? (defaultAnswer ?? '') : answer;
    },
    async askSecret(text) {
      output.write(`${text} (typing is not shown): `);
      muted.muted = true;
      try {
        return (await question('')).trim();
      } finally {
        muted.muted = false;
        output.write('\n');
      }
    },
    say(line) {
      output.write(`${line}\n`);
    },
    close() {
      pending = null;
      rl.close();
    },
  };
}
