import { FilePenLine, LayoutTemplate, Save } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { PageFrame } from './page-frame.tsx';

/**
 * SPEC.md's preview panel: the page in a sandboxed frame 24rem high that scrolls, 'Save Landing Page' and
 * 'Customize Further'. Before there is any page: what will appear here; while generating: a placeholder that
 * says so.
 */
export function LandingPreview({
  html,
  generating,
  unsaved,
  saving,
  onSave,
  onCustomize,
}: {
  html: string | undefined;
  generating: boolean;
  /** The page or its settings differ from what is saved. */
  unsaved: boolean;
  saving: boolean;
  onSave: () => void;
  onCustomize: () => void;
}) {
  return (
    <div className="grid gap-4">
      <div className="flex min-h-6 flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          {html ? 'How your page looks to a visitor. Links and scripts are switched off here.' : 'Your generated page appears here.'}
        </p>
        {html && !generating && (
          <Badge variant={unsaved ? 'default' : 'secondary'} data-testid="preview-status">
            {unsaved ? 'Unsaved changes' : 'Saved'}
          </Badge>
        )}
      </div>

      {generating ? (
        <div role="status" aria-live="polite" className="grid h-96 content-start gap-4 overflow-hidden rounded-lg border p-6">
          <p className="sr-only">Generating your landing page...</p>
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-6 w-2/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-5/6" />
          <div className="grid grid-cols-3 gap-3">
            <Skeleton className="h-20" />
            <Skeleton className="h-20" />
            <Skeleton className="h-20" />
          </div>
        </div>
      ) : html ? (
        <div className="h-96 max-h-96 overflow-hidden rounded-lg border" data-testid="landing-preview">
          <PageFrame html={html} title="Preview of your landing page" />
        </div>
      ) : (
        <EmptyState icon={LayoutTemplate} title="No landing page yet" className="h-96">
          Describe your brand above and generate a page. You can then preview it here, customize it, save it and publish
          it at its own address.
        </EmptyState>
      )}

      <div className="flex flex-col gap-2 sm:flex-row">
        <Button onClick={onSave} disabled={!html || generating || !unsaved} loading={saving}>
          {!saving && <Save aria-hidden="true" />}
          {saving ? 'Saving...' : 'Save Landing Page'}
        </Button>
        <Button variant="outline" onClick={onCustomize} disabled={!html || generating || saving}>
          <FilePenLine aria-hidden="true" />
          Customize Further
        </Button>
      </div>
    </div>
  );
}
