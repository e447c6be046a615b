import { pathToFileURL } from 'node:url';
import { sanitizeLandingHtml } from '#adapters/html-sanitizer.ts';
import { renderLandingPage } from '#lib/local/bedrock/stand-in.ts';
import { median } from './stats.ts';
import { errorRow, formatTable, row, type Row } from './table.ts';

/**
 * The landing-page sanitizer's price (issue 9): it runs on every generation, save and publish, inside the request.
 * Measured on a 200 KB page (ten times a long generated one): the stand-in's designed page with its main part
 * repeated, icons, images and inline styles added. bench.ts adds `benchSanitizer`'s row; run alone:
 * `node --import tsx test/bench/sanitize.ts`.
 */

export const SANITIZE_RUNS = 25;
const WARM_UP_RUNS = 5;
const SANITIZE_BUDGET_MS = 50;
const PAGE_BYTES = 200 * 1024;

/** A designed landing page of at least `bytes` characters, built the way a model writes one. */
export const largeLandingPage = (bytes = PAGE_BYTES): string => {
  const page = renderLandingPage({
    companyName: 'Northwind Studio',
    businessType: 'design',
    colorTheme: 'vibrant',
    missionStatement: 'We help small teams ship beautiful products, fast.',
    problemSolved: 'Design agencies are slow and expensive. We are neither.',
  });
  const start = page.indexOf('<main');
  const end = page.indexOf('</main>') + '</main>'.length;
  const icon =
    '<svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">' +
    '<stop offset="0" stop-color="#be185d"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs>' +
    '<path d="M12 2l3 7h7l-5.5 4.5L18.5 21 12 16.5 5.5 21l2-7.5L2 9h7z" fill="url(#g)" stroke="none"/></svg>';
  const figure =
    '<figure style="margin: 0; border-radius: 16px; overflow: hidden; box-shadow: 0 10px 30px rgba(15, 23, 42, 0.08)">' +
    '<img src="https://images.example.com/studio.jpg" alt="The studio at work" width="640" height="360" loading="lazy">' +
    '<figcaption style="padding: 0.75rem 1rem; color: #5b4a6b; font-size: 0.9rem">Our studio, where the work happens.</figcaption></figure>';
  const main = page.slice(start, end).replace(/<h3>/g, `${icon}<h3>`).replace('</section>', `${figure}</section>`);
  let html = page.slice(0, end);
  while (html.length < bytes) html += main;
  return html + page.slice(end);
};

/** Median time to sanitize the 200 KB page, after a few warm-up runs (the Lambda serves many requests warm). */
export const measureSanitizer = (runs = SANITIZE_RUNS): { median: number; bytes: number } => {
  const page = largeLandingPage();
  for (let i = 0; i < WARM_UP_RUNS; i++) sanitizeLandingHtml(page);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    sanitizeLandingHtml(page);
    times.push(performance.now() - started);
  }
  return { median: median(times), bytes: page.length };
};

export const benchSanitizer = (): Row => {
  const metric = `sanitizing a 200 KB landing page: median of ${SANITIZE_RUNS} runs`;
  try {
    const { median: ms } = measureSanitizer();
    return row(metric, `${ms.toFixed(1)} ms`, `<= ${SANITIZE_BUDGET_MS} ms`, ms <= SANITIZE_BUDGET_MS);
  } catch (error) {
    return errorRow(metric, error);
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`\n${formatTable([benchSanitizer()])}\n`);
}
