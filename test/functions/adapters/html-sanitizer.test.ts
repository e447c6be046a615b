import { describe, expect, it } from 'vitest';
import { FORBIDDEN_HTML, sanitizeLandingHtml } from '#adapters/html-sanitizer.ts';
import type { LandingFields } from '#lib/local/bedrock/prompt-fields.ts';
import { palettes, renderLandingPage } from '#lib/local/bedrock/stand-in.ts';
import { largeLandingPage } from '#test/bench/sanitize.ts';
import { hostileLandingPage, xssPayloads } from '#test/support/xss-corpus.ts';

const fields: LandingFields = {
  companyName: 'Northwind Studio',
  businessType: 'design',
  colorTheme: 'vibrant',
  missionStatement: 'We help small teams ship beautiful products, fast.',
  problemSolved: 'Design agencies are slow and expensive. We are neither.',
};

const inDocument = (body: string): string =>
  `<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>Test page</title>\n<style>h1 { color: #123456; }</style>\n</head>\n<body>\n<h1>Hello</h1>\n${body}\n<p>The end.</p>\n</body>\n</html>`;

/** Every URL the page links to or loads that is not http(s), mailto, tel, relative, `#` or a raster data: image. */
const unsafeUrls = (html: string): string[] =>
  [...html.matchAll(/\s(?:href|src|cite|action|formaction|data|xlink:href)="([^"]*)"/gi)]
    .map((match) => match[1]!)
    .filter((url) => {
      // eslint-disable-next-line no-control-regex
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/&#\d+;|&\w+;|[\u0000-\u0020]/g, ''))?.[1]?.toLowerCase();
      return scheme !== undefined && !['http', 'https', 'mailto', 'tel'].includes(scheme) && !/^data:image\/(?:png|jpeg|gif|webp)[;,]/i.test(url);
    });

/** The words a reader sees in the body, character references decoded. */
const visibleText = (html: string): string =>
  html
    .slice(html.search(/<body[\s>]/i))
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&(amp|lt|gt|quot|copy);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', copy: '©' })[name]!)
    .replace(/\s+/g, ' ')
    .trim();

const expectSafe = (html: string): void => {
  expect(html).not.toMatch(FORBIDDEN_HTML);
  expect(html.startsWith('<!DOCTYPE html>\n<html lang="')).toBe(true);
  expect(unsafeUrls(html)).toEqual([]);
  expect(html).not.toMatch(/<(?:svg|math)[^>]*\s(?:href|xlink:href)=/i);
  expect(sanitizeLandingHtml(html)).toBe(html);
};

describe('sanitizing a landing page', () => {
  describe('the XSS corpus', () => {
    it('has at least 30 payloads', () => {
      expect(xssPayloads.length).toBeGreaterThanOrEqual(30);
    });

    it.each(xssPayloads)('leaves nothing forbidden of %s written alone', (payload) => {
      expectSafe(sanitizeLandingHtml(payload));
    });

    it.each(xssPayloads)('leaves nothing forbidden of %s inside a whole document, and keeps the page around it', (payload) => {
      const html = sanitizeLandingHtml(inDocument(payload));
      expectSafe(html);
      expect(html).toContain('<h1>Hello</h1>');
      expect(html).toContain('<style>\nh1 { color: #123456; }\n</style>');
    });

    it.each(xssPayloads)('shows %s typed into every field as the same harmless text', (payload) => {
      const page = renderLandingPage({ companyName: payload, businessType: payload, colorTheme: 'warm', missionStatement: payload, problemSolved: payload });
      const html = sanitizeLandingHtml(page);
      expectSafe(html);
      expect(visibleText(html)).toContain(payload.replace(/\s+/g, ' ').trim());
    });

    it('survives a hostile model answer mixing all of them with a designed page', () => {
      const html = sanitizeLandingHtml(hostileLandingPage);
      expectSafe(html);
      expect(html).toContain('<title>Acme Rockets</title>');
      expect(html).toMatch(/<h1>Acme Rockets<\/h1>/);
      expect(html).toContain('.hero { background: linear-gradient(135deg, #be185d, #7c3aed); color: #ffffff; padding: 4rem 1rem; }');
      expect(html).toContain('<a href="mailto:hello@example.com">hello@example.com</a>');
      expect(html).toContain('<a href="#contact">Contact</a>');
      expect(html).not.toMatch(/<base|<link|<meta http|https:\/\/evil\.example\/x\.css|expression\(/i);
      expect(html).not.toContain('Here is your landing page');
      expect(html).not.toContain('```');
    });
  });

  describe('a designed page', () => {
    const original = renderLandingPage(fields);
    const html = sanitizeLandingHtml(original);

    it('keeps its styles, in the head, with the theme colours', () => {
      const head = html.slice(0, html.indexOf('</head>'));
      expect(head).toMatch(/<style>\n[\s\S]*\.hero \{ background: linear-gradient\(135deg, #be185d 0%, #9d174d 100%\)/);
      expect(head).toContain(palettes.vibrant!.primary);
      expect(head).toContain('@media (max-width: 600px)');
    });

    it('keeps its head: language, charset, viewport, title and description', () => {
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<meta charset="utf-8">');
      expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(html).toContain('<title>Northwind Studio | Design that speaks for you</title>');
      expect(html).toContain('<meta name="description" content="We help small teams ship beautiful products, fast.">');
    });

    it('keeps its headings, navigation, sections and every word', () => {
      expect(html).toContain('<h1 id="hero-title">Northwind Studio</h1>');
      expect(html).toContain('<nav aria-label="Main">');
      expect(html).toContain('<a class="button button-light" href="#contact">Get started</a>');
      expect(html.match(/<section /g)).toHaveLength(original.match(/<section /g)!.length);
      expect(html).toContain('<section id="contact" class="cta" aria-labelledby="contact-title">');
      expect(visibleText(html)).toBe(visibleText(original));
    });

    it('gives the same page back when sanitized again (generate, save and publish each sanitize)', () => {
      expect(sanitizeLandingHtml(html)).toBe(html);
    });
  });

  describe('images and links', () => {
    it('keeps images from https and raster data: URLs, and drops javascript: and svg data: sources', () => {
      const html = sanitizeLandingHtml(
        '<img src="https://images.example.com/hero.jpg" alt="Hero" width="640" height="360">' +
          '<img src="data:image/png;base64,iVBORw0KGgo=" alt="Dot">' +
          '<img src="javascript:alert(1)" alt="Bad">' +
          '<img src=" JaVa&#x09;ScRiPt:alert(1)" alt="Worse">' +
          '<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="Svg">',
      );
      expect(html).toContain('<img src="https://images.example.com/hero.jpg" alt="Hero" width="640" height="360" />');
      expect(html).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="Dot" />');
      expect(html).toContain('<img alt="Bad" />');
      expect(html).toContain('<img alt="Worse" />');
      expect(html).toContain('<img alt="Svg" />');
    });

    it('keeps http(s), mailto, tel, relative and # links and drops the rest', () => {
      const html = sanitizeLandingHtml(
        ['https://example.com/a', 'http://example.com/b', 'mailto:a@example.com', 'tel:+15551234', '/pricing', '#contact', 'javascript:alert(1)', 'data:text/html,x', 'vbscript:x']
          .map((href) => `<a href="${href}">link</a>`)
          .join(''),
      );
      expect([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['https://example.com/a', 'http://example.com/b', 'mailto:a@example.com', 'tel:+15551234', '/pricing', '#contact']);
    });

    it('adds rel="noopener noreferrer" to links that open a new tab, keeping a rel already there', () => {
      const html = sanitizeLandingHtml('<a href="https://example.com" target="_blank">a</a><a href="https://example.com" target="_BLANK" rel="nofollow">b</a><a href="#x" target="evil">c</a>');
      expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">a</a>');
      expect(html).toContain('<a href="https://example.com" target="_blank" rel="nofollow noopener noreferrer">b</a>');
      expect(html).toContain('<a href="#x">c</a>');
    });
  });

  describe('CSS', () => {
    it('drops scripting, imports and markup from <style> and keeps the rest, moving body styles into the head', () => {
      const html = sanitizeLandingHtml(
        inDocument(`<style>
  @import url("https://evil.example/x.css");
  .ok { color: #be185d; scroll-behavior: smooth; }
  .bad1 { background: url(javascript:alert(1)); }
  .bad2 { width: expression(alert(1)); color: red; }
  .bad3 { behavior: url(x.htc); -moz-binding: url(x.xml#x); }
  .bad4 { background: url("data:text/html,x"); }
  .bg { background: url("https://images.example.com/bg.jpg") center / cover; }
  @media (max-width: 600px) { .ok { color: blue; } .bad5 { content: "\\3c script"; } }
</style><p>text</p>`),
      );
      const head = html.slice(0, html.indexOf('</head>'));
      const body = html.slice(html.indexOf('<body'));
      expect(head).toContain('.ok { color: #be185d; scroll-behavior: smooth; }');
      expect(head).toContain('.bg { background: url("https://images.example.com/bg.jpg") center / cover; }');
      expect(head).toContain('@media (max-width: 600px) { .ok { color: blue; } .bad5 { } }');
      expect(head).toContain('.bad2 { color: red; }');
      expect(head).not.toMatch(/@import|javascript|expression|[^-]behavior:|binding|data:text/);
      expect(body).not.toContain('<style');
    });

    it('filters style attributes declaration by declaration', () => {
      const html = sanitizeLandingHtml(
        '<div style="color: #be185d; background: url(javascript:alert(1)); font-family: &quot;Segoe UI&quot;, sans-serif; width: expression(alert(1)); background-image: url(data:image/png;base64,AAAA)">x</div><p style="behavior: url(x.htc)">y</p>',
      );
      expect(html).toContain('<div style="color: #be185d; font-family: &quot;Segoe UI&quot;, sans-serif; background-image: url(data:image/png;base64,AAAA)">x</div>');
      expect(html).toContain('<p>y</p>');
    });
  });

  describe('markup', () => {
    it('keeps an inline SVG icon and drops what makes SVG active', () => {
      const html = sanitizeLandingHtml(
        '<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><title>Star</title><path d="M12 2l3 7h7z" fill="currentColor" stroke-width="2"/>' +
          '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#be185d"/></linearGradient><radialGradient id="r"/></defs>' +
          '<use href="#x"/><foreignObject><p>x</p></foreignObject><animate attributeName="fill" to="red"/><a href="https://example.com"><circle cx="5" cy="5" r="2"/></a></svg>',
      );
      expect(html).toContain('<svg viewbox="0 0 24 24" width="24" height="24" aria-hidden="true"><title>Star</title><path d="M12 2l3 7h7z" fill="currentColor" stroke-width="2"></path>');
      expect(html).toContain('<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#be185d"></stop></linearGradient><radialGradient id="r"></radialGradient></defs>');
      expect(html).toContain('<circle cx="5" cy="5" r="2"></circle>');
      expect(html).not.toMatch(/<use|<foreignobject|<animate|<a /i);
      expect(html).toContain('<title>Landing page</title>');
    });

    it('drops forms, fields and frames but keeps their labels, and makes buttons plain buttons', () => {
      const html = sanitizeLandingHtml(
        '<form action="https://evil.example" method="post"><label>Email</label><input type="email" name="email"><textarea>secret</textarea><select><option>One</option></select>' +
          '<button type="submit" formaction="https://evil.example/x">Subscribe</button></form><iframe src="https://example.com"></iframe>',
      );
      expect(html).toContain('<label>Email</label><button type="button">Subscribe</button>');
      expect(html).not.toMatch(/<form|<input|<textarea|<select|<option|secret|<iframe|formaction|action=/);
    });

    it('settles a page whose dropped tag changed how the rest parses, so sanitizing again changes nothing', () => {
      // With <font> gone, the <table> now closes the <p> it sat in: the page is sanitized until it stops changing.
      const html = sanitizeLandingHtml('<p>Intro <font><table><tr><td>cell</td></tr></table></font> end</p>');
      expect(html).toContain('<body>\n<p>Intro </p><table><tr><td>cell</td></tr></table> end<p></p>\n</body>');
      expect(sanitizeLandingHtml(html)).toBe(html);
    });

    it('drops attributes whose value reads as a payload', () => {
      const html = sanitizeLandingHtml('<h2 title="x onmouseover=alert(1)" class="title" aria-label="http-equiv">Hi</h2><img src="/a.png" alt="javascript:alert(1)">');
      expect(html).toContain('<h2 class="title">Hi</h2>');
      expect(html).toContain('<img src="/a.png" />');
    });

    it('keeps the language of the page and the body attributes that style it', () => {
      const html = sanitizeLandingHtml('<html lang="fr-CA"><head><title>Bonjour</title></head><body class="theme-warm" style="margin: 0" onload="alert(1)"><p>Salut</p></body></html>');
      expect(html).toContain('<html lang="fr-CA">');
      expect(html).toContain('<body class="theme-warm" style="margin: 0">\n<p>Salut</p>\n</body>');
      expect(sanitizeLandingHtml('<html lang="en onclick=x"><p>x</p></html>')).toContain('<html lang="en">');
    });
  });

  describe("reading a model's answer", () => {
    const page = renderLandingPage(fields);
    const expected = sanitizeLandingHtml(page);

    it('takes the document out of a ```html fence with prose around it', () => {
      expect(sanitizeLandingHtml(`Here is your landing page:\n\n\`\`\`html\n${page}\n\`\`\`\n\nI used a vibrant palette.`)).toBe(expected);
    });

    it('takes the document out of prose without a fence', () => {
      expect(sanitizeLandingHtml(`Sure! ${page} Hope you like it = great.`)).toBe(expected);
    });

    it('takes a fragment out of a fence without a language', () => {
      const html = sanitizeLandingHtml('Here you go:\n```\n<section><h1>Hi</h1></section>\n```\nBye');
      expect(html).toContain('<body>\n<section><h1>Hi</h1></section>\n</body>');
      expect(html).not.toMatch(/Here you go|Bye|```/);
    });

    it('keeps what came of an answer cut short, without the closing fence', () => {
      const cut = page.slice(0, page.indexOf('<section id="features"'));
      const html = sanitizeLandingHtml(`\`\`\`html\n${cut}\n\`\`\``);
      expect(html).toContain('<h1 id="hero-title">Northwind Studio</h1>');
      expect(html).not.toContain('```');
      expect(html.endsWith('</body>\n</html>\n')).toBe(true);
    });

    it('wraps a fragment into a whole document titled by its first heading', () => {
      const html = sanitizeLandingHtml('<h1>Fresh &amp; Co</h1><p>Hello</p>');
      expect(html).toBe(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
          '<title>Fresh &amp; Co</title>\n</head>\n<body>\n<h1>Fresh &amp; Co</h1><p>Hello</p>\n</body>\n</html>\n',
      );
    });
  });

  // Its speed is a budget, so it is measured by `npm run bench` (test/bench/sanitize.ts), not asserted here.
  it('sanitizes a 200 KB page whole', () => {
    const page = largeLandingPage();
    expect(page.length).toBeGreaterThanOrEqual(200 * 1024);
    expect(sanitizeLandingHtml(page)).toContain('<h1 id="hero-title">Northwind Studio</h1>');
  });
});
