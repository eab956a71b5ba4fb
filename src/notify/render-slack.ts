/**
 * A Slack Block Kit message (incoming webhook). Slack's documented limits, kept here: at most 50
 * blocks, a section's text at most 3,000 characters, a header's plain text at most 150; the
 * top-level `text` is the notification preview. mrkdwn needs &, < and > escaped.
 */
import type { RunMessage } from './run-message.js';
import { exceptionTexts, summaryLines } from './summary-lines.js';

export const SLACK_MAX_BLOCKS = 50;
export const SLACK_MAX_SECTION_TEXT = 3000;
export const SLACK_MAX_HEADER_TEXT = 150;

export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

export type SlackBlock =
  | { type: 'header'; text: { type: 'plain_text'; text: string; emoji: boolean } }
  | { type: 'section'; text: { type: 'mrkdwn'; text: string } }
  | { type: 'context'; elements: Array<{ type: 'mrkdwn'; text: string }> }
  | { type: 'divider' };

export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const ICON = { ok: ':white_check_mark:', exceptions: ':warning:', failed: ':rotating_light:' } as const;

export function renderSlack(m: RunMessage): SlackMessage {
  const section = (text: string): SlackBlock => ({ type: 'section', text: { type: 'mrkdwn', text: clip(text, SLACK_MAX_SECTION_TEXT) } });
  const facts = summaryLines(m).filter((l) => l.label !== 'Run id');
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(m.headline, SLACK_MAX_HEADER_TEXT), emoji: false } },
    section(facts.map((l) => `*${escapeMrkdwn(l.label)}:* ${escapeMrkdwn(l.value)}`).join('\n')),
  ];
  const exceptions = exceptionTexts(m);
  if (exceptions.length > 0) {
    blocks.push({ type: 'divider' });
    // as many sections as the 3,000-character limit needs, so no listed exception is cut off
    let text = '*First exceptions*';
    for (const line of exceptions.map((t) => `• ${escapeMrkdwn(t)}`)) {
      if (text.length + 1 + line.length > SLACK_MAX_SECTION_TEXT) {
        blocks.push(section(text));
        text = line;
      } else text += `\n${line}`;
    }
    blocks.push(section(text));
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(`run ${m.run_id} · ${m.schema}${m.test ? ' · test message' : ''}`) }] });
  // the context line stays last; exception sections past the limit give way to it
  const context = blocks.pop()!;
  return { text: `${ICON[m.status]} ${escapeMrkdwn(m.headline)}`, blocks: [...blocks.slice(0, SLACK_MAX_BLOCKS - 1), context] };
}
