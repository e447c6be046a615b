import { zodResolver } from '@hookform/resolvers/zod';
import { Save } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { landingSettings, saveLandingBody, type SaveLandingBody } from '@contracts/landing.ts';
import { Button } from '@/components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useDebouncedValue } from '../use-debounced-value.ts';
import { LandingSettingsFields, settingsFieldProps } from './landing-settings-fields.tsx';
import { PageFrame } from './page-frame.tsx';

/** The editor edits the settings and the HTML as one flat form; Save sends them as the contract's save body. */
const editorForm = landingSettings.extend({ content: saveLandingBody.shape.content });

/** How long the live preview waits after the last keystroke. */
export const PREVIEW_DEBOUNCE_MS = 400;

/**
 * 'Customize Further': the page's settings and its HTML source side by side with a live preview (sandboxed like
 * every preview), and Save. A modal dialog: focus stays inside, Escape closes it; full screen on a phone.
 */
export function LandingEditor({
  open,
  onOpenChange,
  page,
  saving,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  page: SaveLandingBody;
  saving: boolean;
  onSave: (body: SaveLandingBody) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !saving && onOpenChange(next)}>
      <DialogContent fullScreenOnPhone className="sm:h-[calc(100dvh-4rem)] sm:max-w-6xl">
        <DialogHeader>
          <DialogTitle>Customize your landing page</DialogTitle>
          <DialogDescription>
            Edit the details and the page&apos;s HTML; the preview follows as you type. Scripts, event handlers and
            embedded frames are removed when you save.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open: every opening starts from the page as it is now. */}
        <EditorForm page={page} saving={saving} onSave={onSave} />
      </DialogContent>
    </Dialog>
  );
}

function EditorForm({ page, saving, onSave }: { page: SaveLandingBody; saving: boolean; onSave: (body: SaveLandingBody) => void }) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(editorForm), defaultValues: { ...page.settings, content: page.content } });
  const content = useWatch({ control, name: 'content' });
  const previewHtml = useDebouncedValue(content, PREVIEW_DEBOUNCE_MS);

  return (
    <form
      noValidate
      aria-label="Customize your landing page"
      className="flex flex-1 flex-col gap-4 lg:min-h-0"
      onSubmit={handleSubmit(({ content: html, ...settings }) => onSave({ content: html, settings }))}
    >
      {/* Side by side on a wide screen, each half scrolling; stacked below that, the dialog itself scrolls. */}
      <div className="grid flex-1 gap-6 lg:min-h-0 lg:grid-cols-2">
        <div className="grid min-w-0 content-start gap-4 lg:overflow-y-auto lg:pr-1">
          <LandingSettingsFields
            disabled={saving}
            {...settingsFieldProps(register, errors)}
          />
          <FormField label="HTML source" error={errors.content?.message} description="The whole page: one HTML document with its styles inline.">
            <Textarea
              rows={14}
              spellCheck={false}
              autoCapitalize="off"
              autoCorrect="off"
              disabled={saving}
              className="min-h-64 font-mono text-xs leading-relaxed sm:text-xs"
              {...register('content')}
            />
          </FormField>
        </div>
        <section aria-label="Live preview" className="flex min-h-96 min-w-0 flex-col gap-2">
          <h3 className="text-sm font-medium">Live preview</h3>
          <div className="min-h-80 flex-1 overflow-hidden rounded-lg border">
            <PageFrame html={previewHtml} title="Live preview of your edited landing page" />
          </div>
        </section>
      </div>
      {/* Always in reach while the stacked fields scroll past. */}
      <DialogFooter className="sticky bottom-0 -mx-4 -mb-4 flex-row justify-end border-t bg-background px-4 py-3 sm:-mx-6 sm:-mb-6 sm:px-6 lg:static lg:m-0 lg:border-0 lg:p-0">
        <DialogClose asChild>
          <Button variant="outline" disabled={saving}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" loading={saving}>
          {!saving && <Save aria-hidden="true" />}
          {saving ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}
