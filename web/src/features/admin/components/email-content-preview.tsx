import { Fragment } from 'react';

const URL_PATTERN = /(https?:\/\/[^\s<>"')]+)/g;

/**
 * An email's plain-text content as its HTML part reads: blank lines separate paragraphs, line breaks stay, links are
 * clickable (the contract's rule for campaign content). Built from React elements, so nothing in the text is markup.
 */
export function EmailContentPreview({ content }: { content: string }) {
  const paragraphs = content
    .trim()
    .split(/\n\s*\n/)
    .filter((p) => p.trim() !== '');
  return (
    <div className="grid gap-3 text-sm leading-relaxed break-words">
      {paragraphs.map((paragraph, i) => (
        <p key={i} className="whitespace-pre-line">
          {paragraph.split(URL_PATTERN).map((part, j) =>
            j % 2 === 1 ? (
              <a key={j} href={part} target="_blank" rel="noreferrer noopener" className="text-primary underline underline-offset-2">
                {part}
              </a>
            ) : (
              <Fragment key={j}>{part}</Fragment>
            ),
          )}
        </p>
      ))}
    </div>
  );
}
