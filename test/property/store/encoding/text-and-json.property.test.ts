import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonText, toJsonText } from '../../../../src/store/encoding/json-text.js';
import { escapeText, unescapeText } from '../../../../src/store/encoding/text-escape.js';
import { anyUtf16String, awkwardString, rawJson } from '../../../support/store/arbitraries.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('escapeText / unescapeText', () => {
  it('round-trips every UTF-16 string', () => {
    fc.assert(fc.property(fc.oneof(anyUtf16String, awkwardString), (text) => unescapeText(escapeText(text)) === text));
  });

  it('never emits U+0000 or a lone surrogate (what PostgreSQL text and UTF-8 cannot hold)', () => {
    fc.assert(
      fc.property(fc.oneof(anyUtf16String, awkwardString), (text) => {
        const escaped = escapeText(text);
        return !escaped.includes('\u0000') && !LONE_SURROGATE.test(escaped);
      }),
    );
  });

  it('leaves ordinary text untouched', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }).filter((text) => !text.includes('\u0000') && !text.includes('\u2400')), (text) => escapeText(text) === text),
    );
  });
});

describe('toJsonText / parseJsonText', () => {
  it('round-trips raw API objects exactly (integers beyond 2^53 as bigint)', () => {
    fc.assert(fc.property(rawJson, (value) => {
      expect(parseJsonText(toJsonText(value))).toEqual(value);
    }));
  });

  it('emits text that plain JSON.parse accepts, with no U+0000 escapes (jsonb rejects them)', () => {
    fc.assert(fc.property(rawJson, (value) => {
      const text = toJsonText(value);
      JSON.parse(text);
      return !text.includes('\\u0000');
    }));
  });
});
