/**
 * The e-mail: a subject a person can triage from the inbox, a plain-text body and the same facts
 * as simple HTML (a table, no images, no remote content). Every value is HTML-escaped.
 */
import type { RunMessage } from './run-message.js';
import { exceptionTexts, summaryLines } from './summary-lines.js';

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderEmail(m: RunMessage, options: { attachmentNote?: string } = {}): EmailContent {
  const lines = summaryLines(m);
  const width = Math.max(...lines.map((l) => l.label.length)) + 2;
  const exceptions = exceptionTexts(m);
  const text = [
    m.headline,
    '',
    ...lines.map((l) => `${`${l.label}:`.padEnd(width)}${l.value}`),
    ...(exceptions.length > 0 ? ['', 'First exceptions:', ...exceptions.map((t) => `  - ${t}`)] : []),
    ...(options.attachmentNote ? ['', options.attachmentNote] : []),
    '',
    `-- payexport (${m.schema})`,
    '',
  ].join('\n');
  const colour = m.status === 'ok' ? '#1a7f37' : m.status === 'exceptions' ? '#9a6700' : '#cf222e';
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<h2 style="color:${colour}">${escapeHtml(m.headline)}</h2>`,
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...lines.map((l) => `<tr><th align="left" valign="top">${escapeHtml(l.label)}</th><td>${escapeHtml(l.value)}</td></tr>`),
    '</table>',
    ...(exceptions.length > 0 ? ['<h3>First exceptions</h3><ul>', ...exceptions.map((t) => `<li>${escapeHtml(t)}</li>`), '</ul>'] : []),
    ...(options.attachmentNote ? [`<p>${escapeHtml(options.attachmentNote)}</p>`] : []),
    `<p style="color:#57606a">payexport (${escapeHtml(m.schema)})</p>`,
    '</body></html>',
    '',
  ].join('\n');
  return { subject: m.headline, text, html };
}
