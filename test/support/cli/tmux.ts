/**
 * A command in a real pseudo-terminal: a tmux session of its own (its own server socket), keys
 * sent as a person types them (C-c, C-d, Enter), the screen read back with capture-pane. Waiting
 * is polling the screen for a pattern, with a generous bound: never a timed assertion.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface TmuxSession {
  /** types `keys` literally, then Enter unless told not to */
  send(keys: string, enter?: boolean): void;
  /** one named key: `C-c`, `C-d`, `Enter` */
  sendKey(key: string): void;
  screen(): string;
  /** the screen once it shows `pattern` */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  close(): void;
}

export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The child's environment: only PATH, HOME and TERM, plus `env`. */
export function tmuxCommand(home: string, env: Record<string, string>, command: readonly string[]): string[] {
  return ['env', '-i', `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`, `HOME=${home}`, 'TERM=xterm', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...command];
}

export function tmuxSession(cwd: string, command: readonly string[], socketDir: string = cwd): TmuxSession {
  const socket = join(socketDir, 'tmux.sock');
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  tmux('new-session', '-d', '-x', '220', '-y', '80', '-s', 'init', '-c', cwd, ...command);
  tmux('set-option', '-t', 'init', 'remain-on-exit', 'on');
  const screen = (): string => tmux('capture-pane', '-p', '-J', '-S', '-400', '-t', 'init');
  return {
    send(keys, enter = true) {
      tmux('send-keys', '-t', 'init', '-l', keys);
      if (enter) tmux('send-keys', '-t', 'init', 'Enter');
    },
    sendKey(key) {
      tmux('send-keys', '-t', 'init', key);
    },
    screen,
    async waitFor(pattern, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const text = screen();
        if (pattern.test(text)) return text;
        if (Date.now() > until) throw new Error(`the terminal never showed ${pattern}; it shows:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
