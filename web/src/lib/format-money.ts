/**
 * '£28', '£28.50', '£1,234': a non-negative amount of pence as pounds, the way en-GB writes them (pence only when
 * there are any). By hand rather than with Intl.NumberFormat: a page's first Intl formatter loads the locale's
 * data, well over 100 ms of main thread on a slow phone, on the marketing page's first render; and every price
 * here is in pounds (plans.ts: `currency: 'GBP'`).
 */
export function formatPounds(pence: number): string {
  const [pounds = '0', fraction] = (pence / 100).toFixed(pence % 100 === 0 ? 0 : 2).split('.');
  return `£${pounds.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/**
 * What a person types as pounds ('29', '29.9', '£1,234.50') in pence, or undefined when it is not an amount of
 * pounds and pence. An empty field is 0.
 */
export function parsePounds(text: string): number | undefined {
  if (text.trim() === '') return 0;
  const cleaned = text.trim().replace(/^£/, '').replaceAll(',', '');
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Pence as the pounds a price field shows: '29', '29.90', '' for 0. */
export const poundsInput = (pence: number): string => (pence === 0 ? '' : (pence / 100).toFixed(pence % 100 === 0 ? 0 : 2));
