/**
 * A text lesson is written in a small Markdown dialect and stored as HTML (the server sanitizes it again):
 * `## ` / `### ` headings, `- ` and `1. ` lists, `> ` quotes, paragraphs split by blank lines, `**bold**`,
 * `*italic*`, `` `code` `` and `[text](https://...)` links. Everything else is text: it is escaped, so what the
 * creator types can never become markup of its own. `htmlToMarkdown` reads a saved lesson back into the editor.
 */

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const safeHref = (href: string) => /^(https?:\/\/|mailto:)/i.test(href);

function inline(text: string): string {
  let html = escapeHtml(text);
  html = html.replace(/`([^`]+)`/g, '<code>$1</code>');
  html = html.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label: string, href: string) =>
    safeHref(href) ? `<a href="${href}">${label}</a>` : whole,
  );
  html = html.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  html = html.replace(/(^|[^*])\*([^*]+)\*/g, '$1<em>$2</em>');
  return html;
}

export function markdownToHtml(markdown: string): string {
  const blocks: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | undefined;
  let paragraph: string[] = [];
  let quote: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push(`<p>${paragraph.map(inline).join('<br>')}</p>`);
    if (quote.length) blocks.push(`<blockquote><p>${quote.map(inline).join('<br>')}</p></blockquote>`);
    if (list) blocks.push(`<${list.tag}>${list.items.map((item) => `<li>${inline(item)}</li>`).join('')}</${list.tag}>`);
    paragraph = [];
    quote = [];
    list = undefined;
  };
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    const heading = /^(#{2,3})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const quoted = /^>\s?(.*)$/.exec(line);
    if (line.trim() === '') {
      flush();
    } else if (heading) {
      flush();
      const level = heading[1]!.length;
      blocks.push(`<h${level}>${inline(heading[2]!)}</h${level}>`);
    } else if (bullet || numbered) {
      const tag = bullet ? 'ul' : 'ol';
      if (paragraph.length || quote.length || (list && list.tag !== tag)) flush();
      list ??= { tag, items: [] };
      list.items.push((bullet ?? numbered)![1]!);
    } else if (quoted) {
      if (paragraph.length || list) flush();
      quote.push(quoted[1]!);
    } else {
      if (list || quote.length) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks.join('\n');
}

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
