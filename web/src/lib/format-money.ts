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
