/**
 * Questions at a terminal, for `payexport init`: one readline interface for the whole session
 * (several interfaces over one piped stdin lose what the first one buffered), and a secret typed
 * WITHOUT echo — readline's output goes through a stream that is muted while the key is typed, so
 * not one character of it reaches the screen, the scrollback or a terminal recording (and readline
 * keeps no history, so the up arrow cannot bring it back).
 *
 * Lines are queued as they arrive: a piped answer file is read ahead while init checks the
 * previous answer against the service, and no line of it is lost. The session ends once, for
 * good: Ctrl-C (exit 130) or the end of the input (Ctrl-D, /dev/null, a file that ends early:
 * exit 64) — every question after that fails at once with the same cause, so no caller can loop
 * on a closed terminal (prompt-end.ts).
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { inputEnded, interrupted } from './prompt-end.js';

export interface Prompter {
  /** the answer, trimmed; the default when the answer is empty */
  ask(question: string, defaultAnswer?: string): Promise<string>;
  /** a secret, typed without echo */
  askSecret(question: string): Promise<string>;
  say(line: string): void;
  /** throws Ctrl-C pressed while a check ran, before anything is written */
  throwIfEnded(): void;
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

type Ending = 'interrupt' | 'eof';

export function terminalPrompter(input: NodeJS.ReadableStream & { isTTY?: boolean }, output: NodeJS.WritableStream & { columns?: number; isTTY?: boolean }): Prompter {
  const tty = input.isTTY === true;
  const muted = new MutableOutput(output);
  const rl = createInterface({ input, output: muted, terminal: tty, historySize: 0 });
  const queued: string[] = [];
  let waiting: { resolve(line: string): void; reject(error: Error): void; question: string } | null = null;
  let ending: Ending | null = null;
  const errorOf = (question: string): Error => (ending === 'interrupt' ? interrupted() : inputEnded(question));

  const end = (why: Ending): void => {
    ending ??= why;
    const w = waiting;
    waiting = null;
    // the one error line starts on a line of its own, not after the unanswered prompt (a secret's prompt gets its newline below)
    if (w !== null && tty && !muted.muted) output.write('\n');
    w?.reject(errorOf(w.question));
  };
  rl.on('line', (line) => {
    const w = waiting;
    waiting = null;
    if (w === null) queued.push(line);
    else w.resolve(line);
  });
  // Ctrl-C at a terminal in raw mode: readline's own event (it would only pause the input)
  rl.on('SIGINT', () => {
    end('interrupt');
    rl.close();
  });
  rl.on('close', () => end('eof'));
  // answers piped in: Ctrl-C reaches the process as a signal
  const onSignal = (): void => {
    end('interrupt');
    rl.close();
  };
  if (!tty) process.on('SIGINT', onSignal);

  /** The next line, after the prompt is shown. */
  const nextLine = (prompt: string, question: string): Promise<string> => {
    // Ctrl-C ends the session at once; the end of the input only once every line read before it is used
    if (ending === 'interrupt' || (ending === 'eof' && queued.length === 0)) return Promise.reject(errorOf(question));
    rl.setPrompt(prompt);
    if (ending === null) rl.prompt();
    else output.write(prompt);
    // a piped answer is not echoed: end the prompt's line so the next one starts on its own
    const done = (line: string): string => (tty ? line : (output.write('\n'), line));
    const line = queued.shift();
    if (line !== undefined) return Promise.resolve(done(line));
    return new Promise<string>((resolve, reject) => {
      waiting = { resolve: (l) => resolve(done(l)), reject, question };
    });
  };

  return promptOps({ output, muted, tty, nextLine, errorOf, isEnded: (why) => ending === why, queuedCount: () => queued.length, close: () => {
    process.off('SIGINT', onSignal);
    waiting = null;
    rl.close();
  } });
}

interface PromptParts {
  output: NodeJS.WritableStream;
  muted: MutableOutput;
  tty: boolean;
  nextLine(prompt: string, question: string): Promise<string>;
  errorOf(question: string): Error;
  isEnded(why: Ending): boolean;
  queuedCount(): number;
  close(): void;
}

/** The prompter's questions over the terminal's line reading (terminalPrompter). */
function promptOps({ output, muted, tty, nextLine, errorOf, isEnded, queuedCount, close }: PromptParts): Prompter {
  return {
    async ask(text, defaultAnswer) {
      const answer = (await nextLine(defaultAnswer === undefined || defaultAnswer === '' ? `${text}: ` : `${text} [${defaultAnswer}]: `, text)).trim();
      return answer === '' ? (defaultAnswer ?? '') : answer;
    },
    async askSecret(text) {
      if (isEnded('interrupt') || (isEnded('eof') && queuedCount() === 0)) throw errorOf(text);
      output.write(`${text} (typing is not shown): `);
      muted.muted = true;
      try {
        return (await nextLine('', text)).trim();
      } finally {
        muted.muted = false;
        // readline's own newline after Enter went to the muted stream
        if (tty) output.write('\n');
      }
    },
    say(line) {
      output.write(`${line}\n`);
    },
    throwIfEnded() {
      // an input that ended after its last answer is a complete answer file, not a cancellation
      if (isEnded('interrupt')) throw interrupted();
    },
    close,
  };
}
