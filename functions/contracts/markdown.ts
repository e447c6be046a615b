/**
 * The platform's small Markdown dialect, rendered to HTML: `## ` / `### ` headings, `- ` and `1. ` lists, `> ` quotes,
 * paragraphs split by blank lines, `**bold**`, `*italic*`, `` `code` `` and `[text](https://...)` links. Everything else
 * is text: it is escaped, so what a creator types can never become markup of its own. Text lessons are written in it
 * (the lesson dialog, stored as HTML) and so are sequence emails (the editor's preview and the sender render them
 * alike); the server sanitizes the HTML again wherever it is stored or sent.
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
