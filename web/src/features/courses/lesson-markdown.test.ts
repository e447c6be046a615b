import { describe, expect, it } from 'vitest';
import { htmlToMarkdown, markdownToHtml } from './lesson-markdown.ts';

describe('markdownToHtml', () => {
  it('turns headings, lists, quotes, emphasis and links into HTML', () => {
    const html = markdownToHtml('## Welcome\n\nPaint **boldly** and *freely*.\n\n- brushes\n- paper\n\n1. wet\n2. paint\n\n> Have fun\n\nSee [the guide](https://example.com/guide).');
    expect(html).toBe(
      [
        '<h2>Welcome</h2>',
        '<p>Paint <strong>boldly</strong> and <em>freely</em>.</p>',
        '<ul><li>brushes</li><li>paper</li></ul>',
        '<ol><li>wet</li><li>paint</li></ol>',
        '<blockquote><p>Have fun</p></blockquote>',
        '<p>See <a href="https://example.com/guide">the guide</a>.</p>',
      ].join('\n'),
    );
  });

  it('escapes typed markup and refuses links that are not http(s) or mailto', () => {
    const html = markdownToHtml('<script>alert(1)</script> [x](javascript:alert(1))');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('&lt;script&gt;');
  });
});

describe('htmlToMarkdown', () => {
  it('reads a saved lesson back into the same text, so editing it round-trips', () => {
    const markdown = '## Welcome\n\nPaint **boldly** and *freely*.\n\n- brushes\n- paper\n\n1. wet\n2. paint\n\nSee [the guide](https://example.com/guide).';
    expect(htmlToMarkdown(markdownToHtml(markdown))).toBe(markdown);
  });
});
