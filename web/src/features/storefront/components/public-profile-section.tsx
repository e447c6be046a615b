import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { ExternalLink, ImageUp, RotateCw, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type * as z from 'zod';
import {
  AVATAR_CONTENT_TYPES,
  AVATAR_MAX_BYTES,
  AVATAR_SIZE_MESSAGE,
  AVATAR_TYPE_MESSAGE,
  BIO_MAX,
  CREATOR_SLUG_MAX,
  publicProfileBody,
  type PublicProfile,
} from '@contracts/storefront.ts';
import { PlanRequiredNote } from '@/components/plan-gate.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { useEntitlements } from '@/lib/entitlements.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { creatorPagePath, urlOf } from '@/lib/paths.ts';
import { ownPublicProfileQueryOptions, uploadAvatar, useSavePublicProfile } from '../api/public-profile-queries.ts';
import { CreatorAvatar } from './creator-avatar.tsx';

export const PROFILE_SAVED = 'Public profile saved';
export const SAVE_FAILED = 'Your public profile could not be saved';
/** A creator without a plan (issue 29): a profile stays public, changing or setting one up needs a plan. */
export const NO_PLAN_REASON = 'Visitors still see your public profile as it is; changing it needs a plan.';
export const NO_PLAN_NEW_REASON = 'Setting up your public profile needs a plan.';

const formSchema = publicProfileBody.pick({ displayName: true, bio: true, slug: true });
type FormValues = z.output<typeof formSchema>;

/** An address suggested from the display name: 'Jane Cooks!' -> 'jane-cooks'. */
export const suggestCreatorSlug = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, CREATOR_SLUG_MAX)
    .replace(/-+$/, '');

/** The picture being edited: the saved one, one uploading or uploaded (not saved yet), or removed. */
type Picture = { state: 'saved' } | { state: 'uploading'; preview: string } | { state: 'new'; preview: string; id: string } | { state: 'removed' };

/** A picture the bucket will take: its type and size, checked before asking for an upload. */
const pictureProblem = (file: File): string | undefined =>
  !(AVATAR_CONTENT_TYPES as readonly string[]).includes(file.type) ? AVATAR_TYPE_MESSAGE : file.size > AVATAR_MAX_BYTES ? AVATAR_SIZE_MESSAGE : file.size === 0 ? 'The file is empty.' : undefined;

/**
 * The profile's "Public profile" section: what visitors see on the creator's page (`/u/<slug>`) and on each course
 * page: display name, address, bio and picture. The picture uploads as soon as it is chosen (straight to the files
 * bucket) and joins the profile with the next save.
 */
export function PublicProfileSection() {
  const profile = useQuery(ownPublicProfileQueryOptions());
  // Without a plan (issue 29) the profile is shown read-only: saving it and uploading a picture need a plan.
  const readOnly = useEntitlements().locked('courses');
  return (
    <Card id="public-profile" role="region" aria-labelledby="public-profile-title" aria-busy={profile.isPending}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id="public-profile-title">Public profile</CardTitle>
          {profile.data && (
            <Button asChild variant="outline" size="sm">
              <a href={creatorPagePath(profile.data.slug)} target="_blank" rel="noopener noreferrer" data-testid="public-page-link">
                <ExternalLink aria-hidden="true" />
                View public page
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </Button>
          )}
        </div>
        <CardDescription>How visitors see you on your course pages and on your own page, which lists your published courses.</CardDescription>
      </CardHeader>
      <CardContent>
        {profile.isPending ? (
          <div className="grid gap-4">
            <span className="sr-only">Loading your public profile...</span>
            <Skeleton className="size-16 rounded-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : profile.isError ? (
          <div role="alert" className="grid gap-3 text-sm">
            <p>Your public profile could not be loaded. Check your connection and try again.</p>
            <Button variant="outline" className="w-fit" loading={profile.isFetching} onClick={() => void profile.refetch()}>
              {!profile.isFetching && <RotateCw aria-hidden="true" />}
              Try again
            </Button>
          </div>
        ) : (
          <div className="grid gap-5">
            {readOnly && <PlanRequiredNote plan="starter" reason={profile.data ? NO_PLAN_REASON : NO_PLAN_NEW_REASON} announce={false} />}
            <fieldset disabled={readOnly} aria-label={readOnly ? 'Public profile (read-only)' : undefined} className="min-w-0">
              <PublicProfileForm saved={profile.data} />
            </fieldset>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function PublicProfileForm({ saved }: { saved: PublicProfile | null }) {
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    getFieldState,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(formSchema),
    defaultValues: { displayName: saved?.displayName ?? '', bio: saved?.bio ?? '', slug: saved?.slug ?? '' },
  });
  const displayName = useWatch({ control, name: 'displayName' });
  const slug = useWatch({ control, name: 'slug' });
  const bio = useWatch({ control, name: 'bio' });
  const save = useSavePublicProfile();
  const [picture, setPicture] = useState<Picture>({ state: 'saved' });
  const [pictureError, setPictureError] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useRef<AbortController | null>(null);

  // A first profile's address follows the name until the creator types one.
  useEffect(() => {
    if (!saved && !getFieldState('slug').isDirty) setValue('slug', suggestCreatorSlug(displayName));
  }, [displayName, saved, getFieldState, setValue]);

  // Local previews are released when replaced and when the form goes.
  const preview = picture.state === 'uploading' || picture.state === 'new' ? picture.preview : undefined;
  useEffect(() => (preview ? () => URL.revokeObjectURL(preview) : undefined), [preview]);
  useEffect(() => () => upload.current?.abort(), []);

  const shownUrl = picture.state === 'saved' ? (saved?.avatarUrl ?? null) : picture.state === 'removed' ? null : picture.preview;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = pictureProblem(file);
    setPictureError(problem);
    if (problem) return;
    upload.current?.abort();
    const controller = new AbortController();
    upload.current = controller;
    const local = URL.createObjectURL(file);
    setPicture({ state: 'uploading', preview: local });
    try {
      const id = await uploadAvatar(file, controller.signal);
      if (!controller.signal.aborted) setPicture({ state: 'new', preview: local, id });
    } catch (error) {
      if (controller.signal.aborted) return;
      setPicture({ state: 'saved' });
      setPictureError(errorMessage(error, 'The picture could not be uploaded. Try again.'));
    }
  };

  const onSubmit = (values: FormValues) => {
    const avatarId = picture.state === 'new' ? picture.id : picture.state === 'removed' ? null : undefined;
    save.mutate(
      { ...values, ...(avatarId !== undefined ? { avatarId } : {}) },
      {
        onSuccess: (profile) => {
          setPicture({ state: 'saved' });
          toast.success(PROFILE_SAVED, { description: `Visitors see it at ${urlOf(creatorPagePath(profile.slug))}` });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'CONFLICT' && error.message.includes('/u/')) {
            setError('slug', { message: error.message }, { shouldFocus: true });
            return;
          }
          const details = error instanceof ApiError && Array.isArray(error.details) ? (error.details as { path?: string; message?: string }[]) : [];
          const fieldIssue = details.find((d) => d.path === 'displayName' || d.path === 'bio' || d.path === 'slug');
          if (fieldIssue) {
            setError(fieldIssue.path as keyof FormValues, { message: fieldIssue.message ?? error.message }, { shouldFocus: true });
            return;
          }
          if (details.some((d) => d.path === 'avatarId')) {
            setPicture({ state: 'saved' });
            setPictureError(error.message);
            return;
          }
          toastError(error, SAVE_FAILED);
        },
      },
    );
  };

  const uploading = picture.state === 'uploading';
  const hasPicture = shownUrl !== null;

  return (
    <form noValidate aria-label="Public profile" className="grid gap-5" onSubmit={(e) => void handleSubmit(onSubmit)(e)}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <CreatorAvatar name={displayName} url={shownUrl} className="size-20 text-2xl" />
        <div className="grid gap-2">
          <p className="text-sm font-medium" id="picture-label">
            Picture
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" loading={uploading} onClick={() => fileInput.current?.click()} aria-describedby="picture-help">
              {!uploading && <ImageUp aria-hidden="true" />}
              {uploading ? 'Uploading...' : hasPicture ? 'Change picture' : 'Upload picture'}
            </Button>
            {hasPicture && !uploading && (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  setPictureError(undefined);
                  setPicture(saved?.avatarUrl ? { state: 'removed' } : { state: 'saved' });
                }}
              >
                <Trash2 aria-hidden="true" />
                Remove
              </Button>
            )}
          </div>
          <p id="picture-help" className="text-xs text-muted-foreground">
            PNG, JPEG or WebP, up to 2 MB. Without one, visitors see your initials.
            {picture.state === 'new' && ' Save to use the new picture.'}
            {picture.state === 'removed' && ' Save to remove your picture.'}
          </p>
          {pictureError && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {pictureError}
            </p>
          )}
          <input
            ref={fileInput}
            type="file"
            accept={AVATAR_CONTENT_TYPES.join(',')}
            className="sr-only"
            tabIndex={-1}
            aria-labelledby="picture-label"
            data-testid="avatar-input"
            onChange={(e) => void choose(e)}
          />
        </div>
      </div>

      <FormField label="Display name" required error={errors.displayName?.message} description="Shown on your courses instead of your email, which stays private.">
        <Input autoComplete="name" maxLength={80} {...register('displayName')} />
      </FormField>

      <div className="grid gap-2">
        <FormField label="Page address" required error={errors.slug?.message} description="Lower-case letters, digits and hyphens, 3 to 40 characters.">
          <Input autoCapitalize="none" autoComplete="off" spellCheck={false} maxLength={CREATOR_SLUG_MAX} {...register('slug')} />
        </FormField>
        <p className="text-sm break-all text-muted-foreground" data-testid="public-page-address">
          Your page: <span className="font-medium text-foreground">{urlOf(creatorPagePath(slug || 'your-name'))}</span>
        </p>
      </div>

      <FormField label="Bio" error={errors.bio?.message} description={`${(bio ?? '').length}/${BIO_MAX} characters, plain text.`}>
        <Textarea rows={4} {...register('bio')} />
      </FormField>

      <Button type="submit" className="w-fit" loading={save.isPending} disabled={uploading}>
        Save public profile
      </Button>
    </form>
  );
}
