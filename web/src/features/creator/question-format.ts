/**
 * How the dashboard's unanswered questions read at a glance: the start of a comment as plain text, and how long it has
 * waited. By hand, like the dashboard's dates: no Markdown renderer or Intl formatter loaded for a list preview.
 */

/** Characters of a question's text the list shows before cutting it at a word with '…'. */
export const EXCERPT_LENGTH = 140;

/**
 * A comment's Markdown (the lesson editor's dialect) as one line of plain text: link and image texts kept, their
 * addresses, emphasis, code marks, headings, quotes and list markers dropped; cut at the last word that fits.
 */
export function questionExcerpt(markdown: string, max: number = EXCERPT_LENGTH): string {
  const text = markdown
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/(\*\*|__|\*|_|~~|`)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s.,;:!?-]+$/, '')}…`;
}

const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'} ago`;

/** How long ago a question was asked: 'just now', '1 minute ago', '5 hours ago', '3 days ago', '2 weeks ago'. */
export function askedAgo(createdAt: string, now: Date = new Date()): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(createdAt)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return unit(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return unit(hours, 'hour');
  const days = Math.floor(hours / 24);
  if (days < 14) return unit(days, 'day');
  return unit(Math.floor(days / 7), 'week');
}
