import { cn } from '@/lib/utils.ts';

/**
 * The one way this app shows a landing page's HTML: an iframe with an empty `sandbox`, so the document is an
 * opaque origin (no access to the app's storage, cookies or DOM) that runs no script, submits no form and opens
 * no popup, whatever the HTML holds. Never add `allow-same-origin` (with `allow-scripts` it would undo the sandbox)
 * and never `allow-scripts`: the server sanitizes the HTML, and this is the second wall.
 */
export function PageFrame({ html, title, className }: { html: string; title: string; className?: string }) {
  return (
    <iframe
      sandbox=""
      srcDoc={html}
      title={title}
      referrerPolicy="no-referrer"
      className={cn('block size-full border-0 bg-white', className)}
    />
  );
}
