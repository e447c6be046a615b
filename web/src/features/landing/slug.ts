import { landingSlug } from '@contracts/landing.ts';

const MAX = 60;

/**
 * A page address suggested from the company name: 'Café Olé & Co.' -> 'cafe-ole-co'. Accents are dropped, every
 * other run of non-letters becomes one hyphen. Too short a name gets '-page' added, so the suggestion passes
 * `landingSlug`; a name with no latin letters or digits at all suggests nothing.
 */
export function suggestSlug(companyName: string): string {
  const base = companyName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (base === '') return '';
  const cut = base.slice(0, MAX).replace(/-+$/, '');
  const slug = cut.length < 3 ? `${cut}-page` : cut;
  return landingSlug.safeParse(slug).success ? slug : '';
}
