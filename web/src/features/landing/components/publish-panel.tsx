import { zodResolver } from '@hookform/resolvers/zod';
import { Copy, ExternalLink, Globe, Info } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { publicPagePath, publishLandingBody, type LandingPage } from '@contracts/landing.ts';
import { Button } from '@/components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { usePublishLandingPage, useUnpublishLandingPage } from '../api/use-publication.ts';
import { landingMessages as m } from '../landing-messages.ts';
import { publicPageUrl } from '../public-url.ts';
import { suggestSlug } from '../slug.ts';

const formatDate = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

function copyLink(url: string): void {
  const copied = navigator.clipboard?.writeText(url) ?? Promise.reject(new Error('no clipboard'));
  copied.then(
    () => toast.success(m.linkCopied.title, { description: url }),
    () => toast.error(m.copyFailed.title, { description: m.copyFailed.description }),
  );
}

/**
 * Publishing (beyond the spec): the saved page at its own public address, `${PagesUrl}/p/<slug>`, on the pages
 * origin. The address is suggested from the company name; a taken one is said on the field. Once public: the link
 * (new tab), 'Copy link', and 'Unpublish' after a confirmation. The public copy is the saved page as it was when
 * published, so a later save needs 'Publish again'.
 */
export function PublishPanel({ page, unsaved }: { page: LandingPage; unsaved: boolean }) {
  const { publication } = page;
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(publishLandingBody), defaultValues: { slug: publication?.slug ?? suggestSlug(page.settings.companyName) } });
  const slug = useWatch({ control, name: 'slug' });
  const publish = usePublishLandingPage({ onFieldError: (message) => setError('slug', { message }, { shouldFocus: true }) });
  const unpublish = useUnpublishLandingPage();
  const [confirming, setConfirming] = useState(false);
  const liveUrl = publication ? publicPageUrl(publication.path) : undefined;
  const staleSnapshot = publication !== null && page.updatedAt > publication.publishedAt;

  return (
    <div className="grid gap-5">
      {publication && liveUrl ? (
        <div className="grid gap-3 rounded-lg border bg-subtle p-4" data-testid="publication">
          <p className="flex items-center gap-2 text-sm font-medium">
            <Globe aria-hidden="true" className="size-4 text-emerald-700" />
            Your page is live
          </p>
          <a
            href={liveUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex w-fit max-w-full items-center gap-1.5 text-sm font-medium break-all underline underline-offset-4 hover:text-foreground/80"
            data-testid="public-link"
          >
            {liveUrl}
            <ExternalLink aria-hidden="true" className="size-3.5 shrink-0" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
          <p className="text-xs text-muted-foreground">Published {formatDate(publication.publishedAt)}</p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button variant="outline" size="sm" onClick={() => copyLink(liveUrl)}>
              <Copy aria-hidden="true" />
              Copy link
            </Button>
            <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" onClick={() => setConfirming(true)}>
              Unpublish
            </Button>
          </div>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">
          Give your saved page its own public address. Visitors see it without signing in, with scripts switched off.
        </p>
      )}

      {(unsaved || staleSnapshot) && (
        <p className="flex gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="publish-note">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700" />
          {unsaved
            ? 'Publishing uses your saved page. Save your changes first to publish them.'
            : 'You have saved changes since publishing. Publish again to update the public page.'}
        </p>
      )}

      <form noValidate aria-label="Publish your landing page" className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start" onSubmit={handleSubmit(({ slug: next }) => publish.mutate(next))}>
        <FormField
          label="Page address"
          error={errors.slug?.message}
          description={`Lower-case letters, digits and hyphens. Public at ${publicPageUrl(publicPagePath(slug || '…'))}`}
        >
          <Input autoCapitalize="off" autoCorrect="off" spellCheck={false} maxLength={60} placeholder="acme-academy" {...register('slug')} />
        </FormField>
        <Button type="submit" className="sm:mt-6" loading={publish.isPending}>
          {publish.isPending ? 'Publishing...' : publication ? 'Publish again' : 'Publish'}
        </Button>
      </form>

      <Dialog open={confirming} onOpenChange={(open) => !unpublish.isPending && setConfirming(open)}>
        <DialogContent className="sm:max-w-md" role="alertdialog">
          <DialogHeader>
            <DialogTitle>Unpublish your landing page?</DialogTitle>
            <DialogDescription>
              {liveUrl ? <span className="break-all">{liveUrl}</span> : 'Its address'} will stop showing your page, and the
              address becomes free for others to take. Your saved page stays here, and you can publish it again at any time.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={unpublish.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button variant="destructive" loading={unpublish.isPending} onClick={() => unpublish.mutate(undefined, { onSuccess: () => setConfirming(false) })}>
              {unpublish.isPending ? 'Unpublishing...' : 'Unpublish'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
