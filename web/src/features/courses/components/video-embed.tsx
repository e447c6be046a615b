import { parseVideoUrl } from '@contracts/courses.ts';

/**
 * A video lesson's player: YouTube through its privacy-enhanced youtube-nocookie.com player, Vimeo with Do Not
 * Track (`dnt=1`), a direct https file in a <video> element. The app's CSP allows exactly these (frame-src,
 * media-src). Nothing for a URL the contract refuses.
 */
export function VideoEmbed({ url, title }: { url: string; title: string }) {
  const source = parseVideoUrl(url);
  if (!source) return null;
  return (
    <div className="aspect-video w-full overflow-hidden rounded-lg border bg-black">
      {source.provider === 'file' ? (
        <video controls preload="metadata" src={source.url} className="size-full" aria-label={title}>
          <track kind="captions" />
        </video>
      ) : (
        <iframe
          src={
            source.provider === 'youtube'
              ? `https://www.youtube-nocookie.com/embed/${source.id}`
              : `https://player.vimeo.com/video/${source.id}?dnt=1`
          }
          title={title}
          className="size-full"
          loading="lazy"
          referrerPolicy="strict-origin-when-cross-origin"
          allow="encrypted-media; fullscreen; picture-in-picture"
          allowFullScreen
        />
      )}
    </div>
  );
}
