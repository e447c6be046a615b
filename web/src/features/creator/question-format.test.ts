import { describe, expect, it } from 'vitest';
import { askedAgo, questionExcerpt } from './question-format.ts';

describe('questionExcerpt', () => {
  it('reads Markdown as plain text: link texts kept, marks and addresses dropped, one line', () => {
    expect(questionExcerpt('## Help\n> quoted\n- How **wet** should the _clay_ be? See [the guide](https://example.com/g) and `slip`.')).toBe(
      'Help quoted How wet should the clay be? See the guide and slip.',
    );
  });

  it('cuts a long question at a word with an ellipsis, within 140 characters', () => {
    const long = `${'Why does my wash dry with hard edges '.repeat(6)}end`;
    const excerpt = questionExcerpt(long);
    expect(excerpt.length).toBeLessThanOrEqual(141);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(long.startsWith(excerpt.slice(0, -1))).toBe(true);
    expect(excerpt.slice(0, -1).endsWith(' ')).toBe(false);
  });

  it('keeps a short question whole', () => {
    expect(questionExcerpt('Is cotton paper worth it?')).toBe('Is cotton paper worth it?');
  });
});

describe('askedAgo', () => {
  const now = new Date('2026-11-29T12:00:00.000Z');
  it.each([
    ['2026-11-29T11:59:30.000Z', 'just now'],
    ['2026-11-29T11:59:00.000Z', '1 minute ago'],
    ['2026-11-29T09:00:00.000Z', '3 hours ago'],
    ['2026-11-28T12:00:00.000Z', '1 day ago'],
    ['2026-11-19T12:00:00.000Z', '10 days ago'],
    ['2026-11-01T12:00:00.000Z', '4 weeks ago'],
  ])('%s reads %s', (at, words) => expect(askedAgo(at, now)).toBe(words));
});
