import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../support/cli/cli.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * The progress bars as a person sees them: `payexport demo` typed into a real pseudo-terminal
 * (tmux, 120 columns), then the whole scrollback read back (capture-pane -S -). Bars redraw in
 * place (each bar once per job, finished), log lines land above the bars whole, and a finished
 * bar's count says what finished. tmux is a Debian package .ci/run installs; without it the suite
 * skips visibly (and fails under PAYEXPORT_REQUIRE_READERS=1, like the other independent tools).
 */

const ws = workspace('tty');
const tmuxMissing = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0 ? null : 'tmux not installed (apt-get install tmux)';
if (tmuxMissing !== null && process.env['PAYEXPORT_REQUIRE_READERS'] === '1') throw new Error(`PAYEXPORT_REQUIRE_READERS=1 but ${tmuxMissing}`);
const socket = `payexport-tty-${process.pid}`;
const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });

beforeAll(() => assertBuilt());
afterAll(() => {
  tmux('kill-server');
  ws.remove();
});

/** A bar row: ` label   ████░░░░ detail` (cli-progress' shades_grey preset, 24 cells). */
const BAR = /^ (\S.*?)\s+[█░]{24} (.*)$/;
const LOG = /^\d\d:\d\d:\d\d\.\d{3} (INFO|WARN|ERROR) /;

async function runInTerminal(cwd: string, command: string, timeoutMs: number): Promise<{ exit: string; screen: string[] }> {
  const exitFile = join(cwd, 'exit-code');
  expect(tmux('new-session', '-d', '-x', '120', '-y', '40', '-s', 'demo', '-c', cwd).status).toBe(0);
  // typed as a person would, then the exit status written where the test can wait for it
  tmux('send-keys', '-t', 'demo', `${command}; echo $? > ${exitFile}`, 'Enter');
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(exitFile) || readFileSync(exitFile, 'utf8').trim() === '') {
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const captured = tmux('capture-pane', '-p', '-S', '-', '-t', 'demo');
  tmux('kill-session', '-t', 'demo');
  return { exit: existsSync(exitFile) ? readFileSync(exitFile, 'utf8').trim() : 'timed out', screen: captured.stdout.split('\n') };
}

describe.skipIf(tmuxMissing !== null)(`progress on a terminal${tmuxMissing === null ? '' : ` — skipped: ${tmuxMissing}`}`, () => {
  it('redraws the bars in place, puts log lines above them whole, and counts what finished', async () => {
    const cwd = ws.fresh('demo');
    const { exit, screen } = await runInTerminal(cwd, `'${process.execPath}' '${join(ROOT, 'dist/cli/main.js')}' demo --scale 400`, 300_000);
    const context = screen.join('\n');
    expect(exit, context).toBe('0');

    // one section per job: from its `== …` title to the next
    const starts = screen.map((line, i) => (line.startsWith('== ') ? i : -1)).filter((i) => i >= 0);
    expect(starts, context).toHaveLength(2);
    for (const [k, start] of starts.entries()) {
      const section = screen.slice(start, starts[k + 1] ?? screen.length);
      const bars = section.map((line, i) => ({ i, m: BAR.exec(line) })).filter((b) => b.m !== null);
      const labels = bars.map((b) => b.m![1]!.trim());
      expect(labels.length, context).toBeGreaterThanOrEqual(4);
      // no stale bar line: each bar once, and every bar in its finished state
      expect(new Set(labels).size, `a bar appears twice in the scrollback:\n${context}`).toBe(labels.length);
      for (const b of bars) expect(b.m![2], `${b.m![1]} did not end finished:\n${context}`).toMatch(/^done · \d[\d,]* (streams? · [\d,]+ rows pulled|rows written)$/);
      expect(section.join('\n')).not.toMatch(/done · 0\//);
      // the bars form one block, right before the closing ✓
      const first = bars[0]!.i;
      expect(bars.map((b) => b.i), context).toEqual(bars.map((_b, j) => first + j));
      expect(section[first + bars.length], context).toBe('✓ finished');
      // log lines sit above the bars, whole: "report published …" ends with its findings count
      const logs = section.map((line, i) => (LOG.test(line) ? i : -1)).filter((i) => i >= 0);
      expect(logs.length, context).toBeGreaterThan(0);
      for (const i of logs) expect(i, context).toBeLessThan(first);
      const published = section.slice(logs[logs.length - 1]!, first).join('');
      expect(published, context).toMatch(/report published .* findings=\d+$/);
    }
  }, 360_000);
});
