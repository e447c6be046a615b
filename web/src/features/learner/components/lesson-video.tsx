import { parseVideoUrl } from '@contracts/courses.ts';

/**
 * A video lesson: YouTube through its privacy-enhanced host, Vimeo with do-not-track, a direct file in <video>.
 * These are exactly the players the Content-Security-Policy allows (frame-src, media-src https:).
 */
export function LessonVideo({ url, title }: { url: string; title: string }) {
  const source = parseVideoUrl(url);
  if (!source) return <p className="text-sm text-muted-foreground">This video cannot be played here.</p>;
  if (source.provider === 'file') {
    return (
      <video controls preload="metadata" className="aspect-video w-full rounded-lg bg-black" aria-label={title} src={source.url} />
    );
  }
  const src =
    source.provider === 'youtube'
      ? `https://www.youtube-nocookie.com/embed/${source.id}`
      : `https://player.vimeo.com/video/${source.id}?dnt=1`;
  return (
    <iframe
      src={src}
      title={title}
      className="aspect-video w-full rounded-lg border-0 bg-black"
      allow="fullscreen; picture-in-picture; encrypted-media"
      allowFullScreen
      referrerPolicy="strict-origin-when-cross-origin"
      loading="lazy"
    />
  );
}
