import { expect } from 'vitest';
import { xssPayloads } from '../../../test/support/xss-corpus.ts';

/**
 * The XSS corpus of QUALITY.md (Security), the one the landing generator's and the discussions' tests use, for the
 * screens that show what a user typed: every payload, one per line, as a learner or a creator could type them.
 */
export { xssPayloads };
export const everyPayload = xssPayloads.map((p) => p.trim()).join('\n');

/** A URL that would run script or load a document of the attacker's when followed. */
const scriptUrl = /^\s*(javascript|data|vbscript):/i;

/**
 * What typed text must never become in the rendered DOM: a <script>, an element with an event handler (`on*`), or a
 * link, source or form action to a javascript:/data: URL. Checks the whole document: dialogs render in portals.
 */
export const expectNoInjectedMarkup = (root: ParentNode = document): void => {
  expect(root.querySelectorAll('script, iframe, object, embed, frame, base, meta[http-equiv]')).toHaveLength(0);
  for (const element of root.querySelectorAll('*')) {
    for (const { name, value } of element.attributes) {
      expect(name, `<${element.tagName.toLowerCase()} ${name}>`).not.toMatch(/^on/i);
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'data'].includes(name)) expect(value, `<${element.tagName.toLowerCase()} ${name}>`).not.toMatch(scriptUrl);
    }
  }
};

/** A node that shows `text` as text: its content is exactly the text, with no element of its own inside. */
export const expectPlainText = (node: Element, text: string): void => {
  expect(node.children).toHaveLength(0);
  expect(node.textContent).toBe(text);
};
