import { ShieldCheck } from 'lucide-react';
import { developersMessages } from '../developers-messages.ts';
import { CopyButton } from './copy-button.tsx';

const m = developersMessages.webhooks.verify;

/** The Node snippet that checks a delivery with the `standardwebhooks` library (what the deliveries are signed with). */
export const verifySnippet = `import { Webhook } from 'standardwebhooks';

// The endpoint's signing secret (whsec_...), kept out of your code.
const wh = new Webhook(secret);

// rawBody: the request's body exactly as received (a string, not parsed JSON);
// headers: webhook-id, webhook-timestamp and webhook-signature.
const payload = wh.verify(rawBody, headers); // throws if the signature is wrong or too old
`;

/** 'Verify signatures': the headers, and the snippet in a code block with Copy. */
export function VerifySignatures() {
  return (
    <section aria-labelledby="verify-signatures" className="grid gap-3 rounded-lg border bg-subtle p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="verify-signatures" className="flex items-center gap-2 font-semibold">
          <ShieldCheck aria-hidden="true" className="size-4 text-muted-foreground" />
          {m.title}
        </h3>
        <CopyButton text={verifySnippet} label={m.copyLabel} />
      </div>
      <p className="text-sm text-muted-foreground">{m.description}</p>
      <pre tabIndex={0} aria-label="Verification snippet (Node.js)" className="overflow-x-auto rounded-md bg-zinc-950 p-4 text-xs leading-relaxed text-zinc-50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
        <code>{verifySnippet}</code>
      </pre>
    </section>
  );
}
