import { describe, expect, it } from 'vitest';
import { maskedEmail, renderMessage, UNSUBSCRIBE_PLACEHOLDER, unsubscribeToken, verifyUnsubscribeToken } from '#core/campaigns/email-content.ts';
import { confirmPage, invalidLinkPage } from '#core/campaigns/unsubscribe-page.ts';

describe('a campaign message', () => {
  it('keeps paragraphs, line breaks and links, escapes markup, and ends with the unsubscribe link in both parts', () => {
    const { text, html } = renderMessage('Hi', 'Hello <b>all</b>,\nwelcome.\n\nRead https://example.com/a?b=1.');
    expect(html).toContain('<p style="margin:0 0 16px">Hello &lt;b&gt;all&lt;/b&gt;,<br>welcome.</p>');
    expect(html).toContain('<a href="https://example.com/a?b=1">https://example.com/a?b=1</a>.');
    expect(html).toContain(`<a href="${UNSUBSCRIBE_PLACEHOLDER}"`);
    expect(text).toContain(`Unsubscribe: ${UNSUBSCRIBE_PLACEHOLDER}`);
  });

  it("cannot smuggle a template placeholder into SES's rendering", () => {
    const { subject, text, html } = renderMessage('{{x}} news', 'Dear {{name}}, {{{raw}}}');
    expect(subject).not.toMatch(/\{\{/);
    expect(text.replace(UNSUBSCRIBE_PLACEHOLDER, '')).not.toMatch(/\{\{|\}\}/);
    expect(html.replace(`"${UNSUBSCRIBE_PLACEHOLDER}"`, '')).not.toMatch(/\{|\}/);
  });
});

describe('an unsubscribe token', () => {
  const key = Buffer.alloc(32, 1);

  it('names its address, lower-cased, only under the key it was made with', () => {
    const token = unsubscribeToken(key, 'Ann@Example.com');
    expect(verifyUnsubscribeToken(key, token)).toEqual({ email: 'ann@example.com', list: 'campaigns' });
    expect(verifyUnsubscribeToken(key, unsubscribeToken(key, 'Ann@Example.com', 'weekly-report'))).toEqual({ email: 'ann@example.com', list: 'weekly-report' });
    expect(verifyUnsubscribeToken(Buffer.alloc(32, 2), token)).toBeUndefined();
  });

  it('is refused when any part is changed', () => {
    const token = unsubscribeToken(key, 'ann@example.com');
    const [address, mac] = token.split('.') as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    expect(verifyUnsubscribeToken(key, `${flip(address, 2)}.${mac}`)).toBeUndefined();
    expect(verifyUnsubscribeToken(key, `${address}.${flip(mac, 5)}`)).toBeUndefined();
    expect(verifyUnsubscribeToken(key, `${Buffer.from('no-at-sign').toString('base64url')}.${mac}`)).toBeUndefined();
    expect(verifyUnsubscribeToken(key, `${address}.`)).toBeUndefined();
  });

  it('shows the address on the confirmation page masked, and escapes what it shows', () => {
    expect(maskedEmail('ann@example.com')).toBe('a•••@example.com');
    expect(confirmPage('<x>•••@example.com')).toContain('&lt;x&gt;•••@example.com');
    expect(confirmPage('a•••@example.com')).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(invalidLinkPage('Bad <link>')).toContain('Bad &lt;link&gt;');
  });
});
