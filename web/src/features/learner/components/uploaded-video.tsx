import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import type { CourseFile } from '@contracts/files.ts';
import { Spinner } from '@/components/ui/spinner.tsx';
import { learnerFileUrl } from '../api/learning-queries.ts';

/**
 * A lesson's uploaded video, played from a short-lived signed URL. A long lesson can outlive its URL (15 minutes):
 * when the video fails, a fresh URL is asked for once and playback goes on where it stopped. A second failure is
 * shown, not retried in a loop.
 */
export function UploadedVideo({ courseId, file, title }: { courseId: string; file: CourseFile; title: string }) {
  const url = useQuery({
    queryKey: ['learning', 'file-url', courseId, file.id],
    queryFn: ({ signal }) => learnerFileUrl(courseId, file.id, signal),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const retried = useRef(false);
  const resume = useRef<{ at: number; playing: boolean } | undefined>(undefined);

  if (url.isPending) {
    return (
      <p role="status" className="flex aspect-video w-full items-center justify-center gap-2 rounded-lg bg-muted text-sm text-muted-foreground">
        <Spinner /> Loading the video...
      </p>
    );
  }
  if (url.isError) {
    return (
      <p role="alert" className="rounded-lg border p-4 text-sm text-destructive">
        The video could not be loaded. Reload the page to try again.
      </p>
    );
  }
  return (
    <video
      controls
      preload="metadata"
      className="aspect-video w-full rounded-lg bg-black"
      aria-label={title}
      src={url.data.url}
      data-testid="uploaded-video"
      onError={(event) => {
        if (retried.current) return;
        retried.current = true;
        const video = event.currentTarget;
        resume.current = { at: video.currentTime, playing: !video.paused };
        void url.refetch();
      }}
      onLoadedMetadata={(event) => {
        const at = resume.current;
        if (!at) return;
        resume.current = undefined;
        const video = event.currentTarget;
        video.currentTime = at.at;
        if (at.playing) void video.play().catch(() => undefined);
      }}
    >
      <track kind="captions" />
    </video>
  );
}
