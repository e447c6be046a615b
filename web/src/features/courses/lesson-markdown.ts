/**
 * A text lesson is written in a small Markdown dialect and stored as HTML (the server sanitizes it again):
 * `## ` / `### ` headings, `- ` and `1. ` lists, `> ` quotes, paragraphs split by blank lines, `**bold**`,
 * `*italic*`, `` `code` `` and `[text](https://...)` links. Everything else is text: it is escaped, so what the
 * creator types can never become markup of its own (functions/contracts/markdown.ts, shared with the sequence
 * emails). `htmlToMarkdown` reads a saved lesson back into the editor.
 */

export { markdownToHtml } from '@contracts/markdown.ts';

function inlineMarkdown(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element)) return '';
  const inner = Array.from(node.childNodes).map(inlineMarkdown).join('');
  switch (node.tagName.toLowerCase()) {
    case 'strong':
    case 'b':
      return `**${inner}**`;
    case 'em':
    case 'i':
      return `*${inner}*`;
    case 'code':
      return `\`${inner}\``;
    case 'a':
      return `[${inner}](${node.getAttribute('href') ?? ''})`;
    case 'br':
      return '\n';
    default:
      return inner;
  }
}

/** The editor's text for a saved lesson's HTML (the same dialect; anything richer is kept as its text). */
export function htmlToMarkdown(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const blocks: string[] = [];
  for (const node of Array.from(doc.body.childNodes)) {
    if (!(node instanceof Element)) {
      const text = node.textContent?.trim();
      if (text) blocks.push(text);
      continue;
    }
    const tag = node.tagName.toLowerCase();
    if (tag === 'h1' || tag === 'h2') blocks.push(`## ${inlineMarkdown(node)}`);
    else if (/^h[3-6]$/.test(tag)) blocks.push(`### ${inlineMarkdown(node)}`);
    else if (tag === 'ul' || tag === 'ol') {
      const items = Array.from(node.children).filter((child) => child.tagName.toLowerCase() === 'li');
      blocks.push(items.map((item, index) => `${tag === 'ul' ? '-' : `${index + 1}.`} ${inlineMarkdown(item).trim()}`).join('\n'));
    } else if (tag === 'blockquote') {
      blocks.push(inlineMarkdown(node).trim().split('\n').map((line) => `> ${line}`).join('\n'));
    } else blocks.push(inlineMarkdown(node).trim());
  }
  return blocks.filter(Boolean).join('\n\n');
}
