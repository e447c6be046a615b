import { cn } from '@/lib/utils.ts';

// Typography for a lesson's HTML (headings, paragraphs, lists, links, emphasis, code, quotes), without a plugin.
const proseClass = cn(
  'max-w-prose text-base leading-7',
  '[&_h1]:mt-6 [&_h1]:mb-3 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mt-6 [&_h2]:mb-3 [&_h2]:text-xl [&_h2]:font-semibold',
  '[&_h3]:mt-5 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold [&_p]:my-3 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6',
  '[&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1 [&_a]:underline [&_a]:underline-offset-4',
  '[&_blockquote]:border-l-4 [&_blockquote]:pl-4 [&_blockquote]:italic [&_code]:rounded [&_code]:bg-muted [&_code]:px-1',
  '[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&>:first-child]:mt-0',
);

/** A text lesson's body. */
export function LessonBody({ html }: { html: string }) {
  // The server sanitizes a lesson's HTML when it is saved (allow-listed tags and attributes, safe link schemes:
  // functions/core/courses), so what arrives here is safe to render as HTML.
  return <div className={proseClass} dangerouslySetInnerHTML={{ __html: html }} />;
}
