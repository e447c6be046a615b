import sanitizeHtml from 'sanitize-html';

/**
 * The landing-page sanitizer (QUALITY.md, Security): a model's answer or a creator's edit in, one whole, safe HTML
 * document out. Run when a page is generated, saved and published, so it is idempotent: sanitizing its own output
 * gives the same string back, so a saved page does not drift from save to save.
 *
 * Built on sanitize-html's allow-list (htmlparser2), with three additions of our own:
 * - CSS is kept (a page without its <style> looks broken) but filtered as text, block by block and declaration by
 *   declaration (`filterStylesheet`, `filterDeclarations`);
 * - every URL is checked after removing what browsers ignore (whitespace and control characters, entities decoded);
 * - the OUTPUT never matches `FORBIDDEN_HTML`, not even through harmless text: a payload typed into a form field is
 *   escaped as text, yet `&lt;img src=x onerror=alert(1)&gt;` would still match `\son\w+\s*=`, so text is escaped
 *   one step further (`=`, the `:` of `javascript:`, the `-` of `http-equiv` as character references, which render
 *   the same). Anything still matching is a bug: `sanitizeLandingHtml` throws rather than answer it.
 */

/** What no page the platform serves may contain (QUALITY.md); the tests hold every output to it. */
export const FORBIDDEN_HTML = /<script|\son\w+\s*=|javascript:|<iframe|<object|<embed|<base|http-equiv/i;

// ---- the allow-list ----

/** Most frequent first: sanitize-html looks tags up in this list several times per node. */
const htmlTags = [
  'div', 'p', 'span', 'a', 'li', 'section', 'h2', 'h3', 'ul', 'strong', 'em', 'img', 'br', 'article',
  'header', 'nav', 'main', 'footer', 'aside', 'h1', 'h4', 'h5', 'h6', 'hr', 'wbr', 'address', 'hgroup',
  'ol', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'blockquote', 'q', 'cite',
  'b', 'i', 'u', 's', 'small', 'mark', 'sub', 'sup', 'abbr', 'time', 'code', 'pre', 'kbd', 'del', 'ins',
  'table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'button', 'label', 'details', 'summary',
];

/**
 * Icons and decorations: shapes and gradients only. No use, foreignObject, animate, set, script, image or a.
 * htmlparser2 gives SVG tag names their SVG case (`linearGradient`).
 */
const svgTags = ['svg', 'g', 'path', 'circle', 'rect', 'line', 'polyline', 'polygon', 'ellipse', 'defs', 'linearGradient', 'radialGradient', 'stop', 'title'];

/** Presentational SVG attributes (htmlparser2 lower-cases them; the browser's parser restores `viewBox` etc.). */
const svgAttributes = [
  'xmlns', 'viewbox', 'preserveaspectratio', 'fill', 'fill-opacity', 'fill-rule', 'clip-rule', 'stroke', 'stroke-width',
  'stroke-linecap', 'stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity',
  'opacity', 'transform', 'd', 'cx', 'cy', 'r', 'rx', 'ry', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'points', 'fx', 'fy',
  'offset', 'stop-color', 'stop-opacity', 'gradientunits', 'gradienttransform', 'spreadmethod', 'focusable',
];

/**
 * Read, then removed, by the hooks of `sanitizeBody`: `sanitizeOnce` rebuilds the head from them (title, meta
 * description, every <style> in order, filtered), so none of these is ever written where it stood.
 */
const collectedTags = ['title', 'meta', 'style'];

/** Dropped with everything inside them (sanitize-html keeps the text of other dropped tags, escaped). */
const droppedWithContent = ['script', 'textarea', 'option', 'xmp', 'noscript', 'noembed', 'noframes', 'template', 'iframe', 'object', 'applet', 'frameset'];

const allowedTags = [...htmlTags, ...svgTags, ...collectedTags];
/** Looked up per tag by `sanitizeBody`, as a set; sanitize-html takes the list. */
const keptTags = new Set(allowedTags);
/** Tags rebuilt by `sanitizeOnce` (from what `sanitizeBody` collects), rather than dropped. */
const rebuiltTags = new Set(['html', 'head', 'body']);

const urlAttributes = new Set(['href', 'src', 'cite']);

const pageOptions: sanitizeHtml.IOptions = {
  allowedTags,
  // <style> is allowed only so that the collecting hook sees its text; it never reaches the output in place.
  allowVulnerableTags: true,
  allowedAttributes: {
    '*': ['class', 'id', 'style', 'role', 'title', 'lang', 'dir', 'width', 'height', 'aria-*'],
    a: ['href', 'target', 'rel', 'name', 'hreflang'],
    img: ['src', 'alt', 'loading', 'decoding'],
    blockquote: ['cite'],
    q: ['cite'],
    ol: ['start', 'reversed', 'type'],
    li: ['value'],
    td: ['colspan', 'rowspan', 'headers'],
    th: ['colspan', 'rowspan', 'headers', 'scope', 'abbr'],
    col: ['span'],
    colgroup: ['span'],
    time: ['datetime'],
    button: ['type', 'disabled'],
    details: ['open'],
    meta: ['name', 'content'],
    ...Object.fromEntries(svgTags.map((tag) => [tag, svgAttributes])),
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: true,
  nonTextTags: droppedWithContent,
  disallowedTagsMode: 'discard',
  // Style attributes are filtered by `filterDeclarations` in `cleanAttributes`, not by postcss.
  parseStyleAttributes: false,
  // Text arrives escaped (&amp; &lt; &gt;) and is written as returned: `=` too becomes a reference, so no text
  // reads as an attribute (`onerror=`). The words are handled on the whole output (`neutraliseWords`), because
  // htmlparser2 splits text at entities: `javascript&colon;` reaches this filter as "javascript" then ":".
  textFilter: (text) => text.replace(/=/g, '&#61;'),
  transformTags: { '*': (tagName, attribs) => ({ tagName, attribs: cleanAttributes(tagName, attribs) }) },
};

// ---- attributes and URLs ----

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What a browser ignores inside a URL's scheme (tabs, newlines, spaces, control characters), removed. */
// eslint-disable-next-line no-control-regex
const squeeze = (value: string): string => value.replace(/[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]+/g, '');

const imageData = /^data:image\/(?:png|jpeg|jpg|gif|webp|avif)[;,]/;

/** True for a URL the page may keep: relative, `#`, http(s), mailto/tel for links, raster data: images for images. */
const safeUrl = (value: string, attribute: string): boolean => {
  const url = squeeze(value).toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(url)?.[1];
  if (scheme === undefined) return true;
  if (scheme === 'http' || scheme === 'https') return true;
  if (attribute === 'href') return scheme === 'mailto' || scheme === 'tel';
  if (attribute === 'src') return imageData.test(url);
  return false;
};

/**
 * The attributes a tag keeps, before sanitize-html's own allow-list: names that are plain words only (no `on*` in
 * any case, no `xlink:href`), no value matching the forbidden pattern, URLs checked, style filtered, links that
 * open a new tab without a handle on this one, and buttons that can never submit anything.
 */
const cleanAttributes = (tag: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes => {
  const kept: sanitizeHtml.Attributes = {};
  for (const name in attribs) {
    // htmlparser2 lower-cases names: `OnMouseOver` arrives as `onmouseover`.
    const value = attribs[name]!;
    if (!/^[a-z][a-z0-9-]*$/.test(name) || name.startsWith('on')) continue;
    if (name === 'style') {
      // Declaration by declaration: one bad one does not cost the element its look.
      const style = filterDeclarations(value);
      if (style) kept.style = style;
    } else if (!FORBIDDEN_HTML.test(value) && (!urlAttributes.has(name) || safeUrl(value, name))) {
      kept[name] = value;
    }
  }
  if (tag === 'a' && kept.target !== undefined) {
    const target = kept.target.trim().toLowerCase();
    if (['_blank', '_self', '_parent', '_top'].includes(target)) kept.target = target;
    else delete kept.target;
    if (kept.target === '_blank') {
      const rel = (kept.rel ?? '').split(/\s+/).filter(Boolean);
      for (const needed of ['noopener', 'noreferrer']) if (!rel.some((r) => r.toLowerCase() === needed)) rel.push(needed);
      kept.rel = rel.join(' ');
    }
  }
  if (tag === 'button') kept.type = 'button';
  return kept;
};

// ---- CSS, as text ----

/** CSS escapes (`\65 xpression`, `java\script`) decoded, so the checks see what the browser's CSS parser sees. */
const decodeCssEscapes = (css: string): string =>
  css.replace(/\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\n\r\f])?|(\r\n|[\n\r\f])|([\s\S]))/g, (_match, hex: string | undefined, _newline, char: string | undefined) => {
    if (hex === undefined) return char ?? '';
    const code = Number.parseInt(hex, 16);
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
  });

const fontData = /^data:(?:font\/[a-z0-9.+-]+|application\/(?:x-)?font-[a-z0-9.+-]+)[;,]/;

/** A `url(...)` to anything but http(s), a relative path or a raster image / font as data. */
const hasBadUrl = (lowerCss: string): boolean => {
  for (const match of lowerCss.matchAll(/url\(([^)]*)/g)) {
    const url = squeeze(match[1] ?? '').replace(/^['"]/, '');
    const scheme = /^([a-z][a-z0-9+.-]*):/.exec(url)?.[1];
    if (scheme !== undefined && scheme !== 'http' && scheme !== 'https' && !imageData.test(url) && !fontData.test(url)) return true;
  }
  return false;
};

/** A piece of CSS that must go: scripting (old IE and Gecko), imports, markup, or the forbidden pattern. */
const badCss = (css: string): boolean => {
  const decoded = decodeCssEscapes(css);
  const lower = decoded.toLowerCase();
  const squeezed = squeeze(lower);
  return (
    FORBIDDEN_HTML.test(css) ||
    FORBIDDEN_HTML.test(decoded) ||
    /expression\(|javascript:|vbscript:|-moz-binding|@import|</.test(squeezed) ||
    // the IE property only: `scroll-behavior: smooth` stays
    /(?:^|[^\w-])(?:-ms-)?behavior\s*:/.test(lower) ||
    hasBadUrl(lower)
  );
};

/** Comments out (each one a space, so `a/**\/b` cannot become a new token), strings left alone. */
const stripComments = (css: string): string => {
  if (!css.includes('/*')) return css;
  let out = '';
  let i = 0;
  while (i < css.length) {
    const char = css[i]!;
    if (char === '\\') {
      out += css.slice(i, i + 2);
      i += 2;
    } else if (char === '"' || char === "'") {
      const end = stringEnd(css, i, css.length);
      out += css.slice(i, end);
      i = end;
    } else if (char === '/' && css[i + 1] === '*') {
      const close = css.indexOf('*/', i + 2);
      out += ' ';
      i = close === -1 ? css.length : close + 2;
    } else {
      out += char;
      i += 1;
    }
  }
  return out;
};

/** Index just after the string opened at `start` (its quote, an unescaped newline, or the end). */
const stringEnd = (css: string, start: number, to: number): number => {
  const quote = css[start];
  let i = start + 1;
  while (i < to) {
    const char = css[i];
    if (char === '\\') i += 2;
    else if (char === quote) return i + 1;
    else if (char === '\n' || char === '\r' || char === '\f') return i;
    else i += 1;
  }
  return to;
};

/** Index of the `}` closing the block whose `{` is just before `from`, or -1 when it never closes. */
const blockEnd = (css: string, from: number, to: number): number => {
  let depth = 0;
  let i = from;
  while (i < to) {
    const char = css[i];
    if (char === '\\') i += 2;
    else if (char === '"' || char === "'") i = stringEnd(css, i, to);
    else {
      if (char === '{') depth += 1;
      else if (char === '}') {
        if (depth === 0) return i;
        depth -= 1;
      }
      i += 1;
    }
  }
  return -1;
};

type CssItem =
  | { kind: 'statement'; text: string }
  | { kind: 'block'; prelude: string; open: number; close: number; closed: boolean }
  | { kind: 'stray' };

/**
 * The items of one CSS list (a stylesheet, a block's body, a style attribute): declarations and statements up to a
 * top-level `;` (the `;` included), blocks `prelude { ... }` (rules, @media, nesting), stray `}`. Strings, escapes
 * and parentheses are skipped over, so `url(a;b)` and `content: "}"` stay whole.
 */
function* cssItems(css: string, from: number, to: number): Generator<CssItem> {
  let i = from;
  while (i < to) {
    const start = i;
    let parens = 0;
    for (;;) {
      if (i >= to) {
        yield { kind: 'statement', text: css.slice(start, to) };
        break;
      }
      const char = css[i];
      if (char === '\\') i += 2;
      else if (char === '"' || char === "'") i = stringEnd(css, i, to);
      else if (char === '(' || char === '[') {
        parens += 1;
        i += 1;
      } else if ((char === ')' || char === ']') && parens > 0) {
        parens -= 1;
        i += 1;
      } else if (char === ';' && parens === 0) {
        i += 1;
        yield { kind: 'statement', text: css.slice(start, i) };
        break;
      } else if (char === '{') {
        const close = blockEnd(css, i + 1, to);
        yield { kind: 'block', prelude: css.slice(start, i), open: i, close: close === -1 ? to : close, closed: close !== -1 };
        i = close === -1 ? to : close + 1;
        break;
      } else if (char === '}') {
        i += 1;
        yield { kind: 'stray' };
        break;
      } else i += 1;
    }
  }
}

/**
 * A CSS list with every bad item removed and the good ones kept verbatim (a block rebuilt around its filtered
 * body), so filtering the result again changes nothing.
 */
const filterItems = (css: string, from: number, to: number): string => {
  let out = '';
  for (const item of cssItems(css, from, to)) {
    if (item.kind === 'statement') {
      const blank = item.text.replace(/;$/, '').trim() === '';
      if (blank ? !item.text.endsWith(';') : !badCss(item.text)) out += item.text;
    } else if (item.kind === 'block' && !badCss(item.prelude)) {
      // A block left open stays open (the browser closes it at the end of the sheet): closing it here would
      // add a `}` on every pass when a string left open swallows the real one.
      out += `${item.prelude}{${filterItems(css, item.open + 1, item.close)}${item.closed ? '}' : ''}`;
    }
  }
  return out;
};

/** A stylesheet (the text of a <style>) with every bad block and declaration removed, trimmed. */
const filterStylesheet = (css: string): string => {
  const clean = stripComments(css);
  const filtered = filterItems(clean, 0, clean.length).trim();
  return badCss(filtered) ? '' : filtered;
};

/** A style attribute's good declarations, as `a: b; c: d` (no blocks, nothing that is not `property: value`). */
const filterDeclarations = (style: string): string => {
  const clean = stripComments(style);
  const kept: string[] = [];
  for (const item of cssItems(clean, 0, clean.length)) {
    if (item.kind !== 'statement') continue;
    const declaration = item.text.replace(/;$/, '').trim();
    if (/^(?:--|-?[a-zA-Z])[\w-]*\s*:/.test(declaration) && !badCss(declaration)) kept.push(declaration);
  }
  const filtered = kept.join('; ');
  return badCss(filtered) ? '' : filtered;
};

// ---- the document ----

const FENCE = /```[^\n`]*\n([\s\S]*?)(?:\n```|$)/;

/**
 * The HTML in a model's answer: from `<!DOCTYPE`/`<html` to `</html>` when there is a document (prose and code
 * fences around it left out), else the content of the first code fence, else the whole text as a fragment.
 */
const extractHtml = (answer: string): string => {
  const lower = answer.toLowerCase();
  const starts = [lower.indexOf('<!doctype'), lower.indexOf('<html')].filter((index) => index >= 0);
  if (starts.length > 0) {
    const start = Math.min(...starts);
    const close = lower.lastIndexOf('</html>');
    if (close > start) return answer.slice(start, close + '</html>'.length);
    // Cut short (no </html>): up to a closing fence if one follows.
    const fence = answer.indexOf('\n```', start);
    return answer.slice(start, fence === -1 ? answer.length : fence);
  }
  return FENCE.exec(answer)?.[1] ?? answer;
};

interface Collected {
  lang?: string;
  bodyAttribs?: sanitizeHtml.Attributes;
  title?: string;
  firstHeading?: string;
  description?: string;
  styles: string[];
  svgDepth: number;
  /** A tag was dropped: see `sanitizeLandingHtml`. */
  dropped: boolean;
}

/** The body's markup with the head's parts collected aside (see `collectedTags`). */
const sanitizeBody = (html: string, collected: Collected): string =>
  sanitizeHtml(html, {
    ...pageOptions,
    onOpenTag: (name, attribs) => {
      if (!keptTags.has(name) && !rebuiltTags.has(name)) collected.dropped = true;
      if (name === 'svg') collected.svgDepth += 1;
      else if (name === 'html') collected.lang ??= attribs.lang ?? '';
      else if (name === 'body') collected.bodyAttribs ??= cleanAttributes('body', attribs);
    },
    onCloseTag: (name) => {
      if (name === 'svg') collected.svgDepth = Math.max(0, collected.svgDepth - 1);
    },
    exclusiveFilter: (frame) => {
      switch (frame.tag) {
        case 'style':
          collected.styles.push(frame.text);
          return true;
        case 'title':
          if (collected.svgDepth > 0) return false;
          collected.title ??= frame.text;
          return true;
        case 'meta':
          if (frame.attribs.name?.toLowerCase() === 'description' && frame.attribs.content) collected.description ??= frame.attribs.content;
          return true;
        case 'h1':
          collected.firstHeading ??= frame.text;
          return false;
        case 'a':
          if (collected.svgDepth === 0) return false;
          collected.dropped = true;
          return 'excludeTag';
        default:
          return false;
      }
    },
  });

/** `javascript:` and `http-equiv` in text, written so that they render the same and match nothing. */
const neutraliseWords = (html: string): string => html.replace(/(javascript):/gi, '$1&#58;').replace(/(http)-(equiv)/gi, '$1&#45;$2');

const oneLine = (text: string, max: number): string => text.replace(/\s+/g, ' ').trim().slice(0, max).trim();

const escapeText = (text: string): string => neutraliseWords(text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/=/g, '&#61;'));

const attributesOf = (attribs: sanitizeHtml.Attributes, names: readonly string[]): string =>
  names
    .filter((name) => attribs[name])
    .map((name) => ` ${name}="${escapeAttribute(attribs[name]!)}"`)
    .join('');

/** The answer's HTML sanitized and rebuilt as a whole document, with a head of our own making. */
const sanitizeOnce = (answer: string): { page: string; dropped: boolean } => {
  const collected: Collected = { styles: [], svgDepth: 0, dropped: false };
  const body = neutraliseWords(sanitizeBody(extractHtml(answer), collected)).trim();
  const lang = collected.lang && /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/i.test(collected.lang) ? collected.lang : 'en';
  const title = oneLine(collected.title ?? '', 200) || oneLine(collected.firstHeading ?? '', 200) || 'Landing page';
  const description = oneLine(collected.description ?? '', 500);
  const styles = collected.styles.map(filterStylesheet).filter(Boolean);
  const page = [
    '<!DOCTYPE html>',
    `<html lang="${escapeAttribute(lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(title)}</title>`,
    ...(description && !FORBIDDEN_HTML.test(description) ? [`<meta name="description" content="${escapeAttribute(description)}">`] : []),
    ...styles.map((css) => `<style>\n${css}\n</style>`),
    '</head>',
    `<body${attributesOf(collected.bodyAttribs ?? {}, ['class', 'id', 'style'])}>`,
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { page, dropped: collected.dropped };
};

const MAX_PASSES = 4;

/**
 * A model's answer (a whole document, possibly in a ```html fence or between sentences) or a fragment in, a whole
 * safe document out, starting with `<!DOCTYPE html>`. Idempotent, so a page does not drift when it is saved and
 * published again: sanitizing the result gives it back.
 *
 * A page whose tags are all on the allow-list comes out of one pass as a fixed point: its tags and attributes come
 * back unchanged, text is written escaped and reads back as the same text, CSS is kept verbatim item by item, and
 * the head is rebuilt from values that survive their own round trip. A page that lost a tag may not: htmlparser2
 * closes a <p> when a <table> opens only if nothing else is open in between, and what was in between may be what
 * went. So after a pass that dropped a tag the pass runs again until nothing changes (the common page, clean
 * already, pays for one pass; the tests and a fuzzing of the corpus hold both cases to it).
 *
 * Throws when no fixed point comes or the result still matches `FORBIDDEN_HTML` (a bug here, never expected):
 * callers treat that as an unusable page.
 */
export const sanitizeLandingHtml = (html: string): string => {
  let { page, dropped } = sanitizeOnce(html);
  for (let passes = 1; dropped; passes += 1) {
    if (passes === MAX_PASSES) throw new Error('The landing page sanitizer found no fixed point.');
    const next = sanitizeOnce(page);
    dropped = next.page !== page;
    page = next.page;
  }
  if (FORBIDDEN_HTML.test(page) || /<style/i.test(page.slice(page.indexOf('</head>')))) {
    throw new Error('The sanitized landing page still holds forbidden markup.');
  }
  return page;
};

// ---- lesson bodies ----

/**
 * A text lesson's body: a FRAGMENT, with a much smaller allow-list than a landing page, since it is shown inside the
 * app itself (the learner's course player), not in a sandboxed page of its own. Headings h2-h4, paragraphs, lists,
 * links, emphasis, code and quotes; no attribute but a link's `href` (http, https or mailto only) and the `rel` that
 * is always set to `noopener`; no style, no class, no image. Text is escaped as in a landing page (`=` and the words
 * of `FORBIDDEN_HTML` as character references), so the output never matches `FORBIDDEN_HTML`: checked, and a result
 * that still did would throw (the caller refuses the lesson) rather than be stored.
 */
const lessonTags = ['p', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'a', 'strong', 'em', 'code', 'pre', 'blockquote', 'br'];

const lessonHref = (value: string): boolean => {
  if (FORBIDDEN_HTML.test(value)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(squeeze(value).toLowerCase())?.[1];
  return scheme === 'http' || scheme === 'https' || scheme === 'mailto';
};

/** The lesson body's rules, with the `rel` every kept link gets. */
const fragmentOptions = (rel: string): sanitizeHtml.IOptions => ({
  allowedTags: lessonTags,
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  nonTextTags: [...droppedWithContent, 'style', 'title', 'svg', 'math', 'head'],
  disallowedTagsMode: 'discard',
  parseStyleAttributes: false,
  textFilter: (text) => text.replace(/=/g, '&#61;'),
  transformTags: {
    a: (tagName, { href }) => {
      const kept: sanitizeHtml.Attributes = href !== undefined && lessonHref(href) ? { href: href.trim(), rel } : {};
      return { tagName, attribs: kept };
    },
  },
});
const lessonOptions = fragmentOptions('noopener');
/**
 * A discussion comment (issue 35 point 1): a learner's words shown to other learners, so the lesson body's rules, and
 * its links marked as user-generated and not endorsed (`rel="nofollow ugc noopener"`).
 */
const commentOptions = fragmentOptions('nofollow ugc noopener');

const sanitizeFragmentOnce = (html: string, options: sanitizeHtml.IOptions): string => neutraliseWords(sanitizeHtml(html, options)).trim();

/** Idempotent like `sanitizeLandingHtml`: a fragment that lost tags (a `<p>` inside a `<p>`) is passed again until it settles. */
const sanitizeFragment = (html: string, options: sanitizeHtml.IOptions): string => {
  let clean = sanitizeFragmentOnce(html, options);
  for (let passes = 1; ; passes += 1) {
    const next = sanitizeFragmentOnce(clean, options);
    if (next === clean) break;
    if (passes === MAX_PASSES) throw new Error('The lesson sanitizer found no fixed point.');
    clean = next;
  }
  if (FORBIDDEN_HTML.test(clean)) throw new Error('The sanitized lesson still holds forbidden markup.');
  return clean;
};

export const sanitizeLessonHtml = (html: string): string => sanitizeFragment(html, lessonOptions);

/** A comment's rendered Markdown: the lesson body's rules, links `rel="nofollow ugc noopener"`. */
export const sanitizeCommentHtml = (html: string): string => sanitizeFragment(html, commentOptions);
