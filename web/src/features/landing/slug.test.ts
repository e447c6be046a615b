import { describe, expect, it } from 'vitest';
import { landingSlug } from '@contracts/landing.ts';
import { suggestSlug } from './slug.ts';

describe('suggestSlug', () => {
  it('turns a company name into a valid address: lower case, accents dropped, one hyphen per gap', () => {
    expect(suggestSlug('Acme Academy')).toBe('acme-academy');
    expect(suggestSlug('  Café Olé & Co. ')).toBe('cafe-ole-co');
    expect(suggestSlug('Über--Fit 24/7!')).toBe('uber-fit-24-7');
  });

  it('pads a name too short to be an address, and cuts a long one at 60 characters without a trailing hyphen', () => {
    expect(suggestSlug('AI')).toBe('ai-page');
    const long = suggestSlug(`${'a'.repeat(59)} b c`);
    expect(long).toBe('a'.repeat(59));
    expect(landingSlug.safeParse(suggestSlug('x'.repeat(200))).success).toBe(true);
  });

  it('suggests nothing for a name without latin letters or digits', () => {
    expect(suggestSlug('日本')).toBe('');
    expect(suggestSlug('---')).toBe('');
  });
});
