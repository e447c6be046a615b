import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { LANDING_PAGE_COST } from '@contracts/credits.ts';
import type { LandingPage, LandingSettings } from '@contracts/landing.ts';
import { PlanRequiredCard } from '@/components/plan-gate.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { LoadFailedCard } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { useEntitlements } from '@/lib/entitlements.ts';
import { landingPageQueryOptions } from '../api/landing-queries.ts';
import { useGenerateLandingPage } from '../api/use-generate-landing-page.ts';
import { useSaveLandingPage } from '../api/use-save-landing-page.ts';
import { LandingEditor } from '../components/landing-editor.tsx';
import {
  blankSettings,
  hasCreditsToGenerate,
  landingForm,
  LandingFormPanel,
  type CreditsState,
  type LandingFormInput,
} from '../components/landing-form.tsx';
import { LandingPreview } from '../components/landing-preview.tsx';
import { PublishPanel } from '../components/publish-panel.tsx';
import { landingMessages as m } from '../landing-messages.ts';

export type { CreditsState };

export interface LandingPageScreenProps {
  /** The AI credits as the credits card shows them (the billing feature's query, handed in by app/). */
  credits: CreditsState;
  /** The AI credits card for the side panel. */
  creditsCard?: ReactNode;
  /** A generation charged, refunded or was refused for credits: refresh the credits (with the new balance if known). */
  onCreditsChanged: (creditsRemaining?: number) => void;
}

/**
 * /dashboard/creator/landing (SPEC.md "Landing page generator"): the form and the preview in the main column, the
 * AI credits card in a side panel (stacked on a phone), then publishing once a page is saved. The saved page and
 * its settings load back in on every visit.
 */
export function LandingPageScreen({ credits, creditsCard, onCreditsChanged }: LandingPageScreenProps) {
  const page = useQuery(landingPageQueryOptions());
  // Without a plan (issue 29) the saved page is shown read-only: generating, saving and publishing need a plan.
  const readOnly = useEntitlements().locked('courses');

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader
        title="Landing Page"
        description={`Describe your brand and let AI write a landing page for ${LANDING_PAGE_COST} credits. Preview it, customize it, save it and publish it.`}
      />
      <div className="grid gap-6 *:min-w-0 lg:grid-cols-3">
        <div className="grid content-start gap-6 *:min-w-0 lg:col-span-2">
          {readOnly && <PlanRequiredCard plan="starter" title="Choose a plan to generate landing pages" reason={READ_ONLY_REASON} />}
          {page.isPending ? (
            <WorkspaceSkeleton />
          ) : page.isError ? (
            <LoadFailedCard title="Your landing page could not be loaded" onRetry={() => void page.refetch()} retrying={page.isFetching} />
          ) : (
            <fieldset disabled={readOnly} aria-label={readOnly ? 'Your landing page (read-only)' : undefined} className="grid min-w-0 content-start gap-6 *:min-w-0">
              <LandingWorkspace saved={page.data} credits={credits} onCreditsChanged={onCreditsChanged} />
            </fieldset>
          )}
        </div>
        <aside aria-label="AI credits" className="grid content-start gap-6 *:min-w-0">
          {creditsCard}
          <HowItWorks />
        </aside>
      </div>
    </div>
  );
}

/** Why the landing page of a creator without a plan is read-only. */
const READ_ONLY_REASON = 'Your saved page, and its public address if you published it, stay as they are; generating, saving and publishing need a plan. Choose Starter or Pro to carry on.';

function LandingWorkspace({
  saved,
  credits,
  onCreditsChanged,
}: {
  saved: LandingPage | null;
  credits: CreditsState;
  onCreditsChanged: (creditsRemaining?: number) => void;
}) {
  const form = useForm<LandingFormInput, unknown, LandingSettings>({
    resolver: zodResolver(landingForm),
    defaultValues: saved?.settings ?? blankSettings,
  });
  // The page being worked on: the saved one, or a newer generated or edited one, and the settings it came from.
  const [draft, setDraft] = useState<{ content: string; settings: LandingSettings } | undefined>(saved ?? undefined);
  const [editing, setEditing] = useState(false);
  const generate = useGenerateLandingPage({ onCreditsChanged });
  const save = useSaveLandingPage();
  const formChanged = form.formState.isDirty;
  const unsaved = draft !== undefined && (saved === null || draft.content !== saved.content || formChanged);

  // A generated page cost credits: leaving before saving it asks first.
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const onGenerate = (settings: LandingSettings) => {
    if (!hasCreditsToGenerate(credits)) {
      if (credits.status === 'ready') toast.error(m.insufficientCredits.title, { description: m.insufficientCredits.description });
      return;
    }
    generate.mutate(settings, { onSuccess: ({ html }) => setDraft({ content: html, settings }) });
  };

  const onSaved = (page: LandingPage) => {
    form.reset(page.settings);
    setDraft(page);
    setEditing(false);
  };

  // 'Save Landing Page' saves the page with the details as the form shows them now.
  const onSave = form.handleSubmit((settings) => {
    if (draft) save.mutate({ content: draft.content, settings }, { onSuccess: onSaved });
  });

  const current = landingForm.safeParse(form.getValues());
  const editorSettings = current.success ? current.data : draft?.settings;

  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Describe your brand</CardTitle>
          <CardDescription>The AI writes your page from these details. Only the name and the business type are required.</CardDescription>
        </CardHeader>
        <CardContent>
          <LandingFormPanel form={form} credits={credits} generating={generate.isPending} onGenerate={onGenerate} />
        </CardContent>
      </Card>

      <Card aria-labelledby="landing-preview-title" role="region">
        <CardHeader>
          <CardTitle id="landing-preview-title">Preview</CardTitle>
        </CardHeader>
        <CardContent>
          <LandingPreview
            html={draft?.content}
            generating={generate.isPending}
            unsaved={unsaved}
            saving={save.isPending && !editing}
            onSave={() => void onSave()}
            onCustomize={() => setEditing(true)}
          />
        </CardContent>
      </Card>

      {saved && (
        <Card aria-labelledby="landing-publish-title" role="region">
          <CardHeader>
            <CardTitle id="landing-publish-title">Publish</CardTitle>
          </CardHeader>
          <CardContent>
            <PublishPanel page={saved} unsaved={unsaved} />
          </CardContent>
        </Card>
      )}

      {draft && editorSettings && (
        <LandingEditor
          open={editing}
          onOpenChange={setEditing}
          page={{ content: draft.content, settings: editorSettings }}
          saving={save.isPending}
          onSave={(body) => save.mutate(body, { onSuccess: onSaved })}
        />
      )}
    </>
  );
}

function WorkspaceSkeleton() {
  return (
    <Card aria-busy="true">
      <CardContent className="grid gap-4 pt-6">
        <p className="sr-only">Loading your landing page...</p>
        <Skeleton className="h-6 w-48" />
        <div className="grid gap-4 sm:grid-cols-2">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
        <Skeleton className="h-10" />
        <Skeleton className="h-20" />
        <Skeleton className="h-20" />
        <Skeleton className="h-11 w-72 max-w-full" />
      </CardContent>
    </Card>
  );
}

const steps = [
  ['Describe', 'your brand: its name, industry, colours, mission and the problem it solves.'],
  ['Generate', `a complete page with AI for ${LANDING_PAGE_COST} credits. A failed generation costs nothing.`],
  ['Customize', 'the details and the HTML, with a live preview.'],
  ['Save and publish', 'it at its own address to share with your audience.'],
] as const;

function HowItWorks() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">How it works</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-3 text-sm">
          {steps.map(([title, text], index) => (
            <li key={title} className="flex gap-3">
              <span aria-hidden="true" className="grid size-6 shrink-0 place-items-center rounded-full bg-muted text-xs font-semibold tabular-nums">
                {index + 1}
              </span>
              <span>
                <strong className="font-medium">{title}</strong> <span className="text-muted-foreground">{text}</span>
              </span>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
