import { useEffect } from 'react';

const PRODUCT_NAME = 'Course Platform';

/** The head tags a shared link is previewed from: description and Open Graph. */
const tags = [
  { attribute: 'name', key: 'description', field: 'description' },
  { attribute: 'property', key: 'og:title', field: 'title' },
  { attribute: 'property', key: 'og:description', field: 'description' },
  { attribute: 'property', key: 'og:type', field: 'type' },
  { attribute: 'property', key: 'og:url', field: 'url' },
] as const;

export interface PageMeta {
  title: string;
  description: string;
  type: 'product' | 'profile' | 'website';
}

/** At most this much of a description goes into the tags (what previews show anyway). */
const DESCRIPTION_MAX = 200;
const shorten = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= DESCRIPTION_MAX ? flat : `${flat.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
};

/**
 * Sets the tab's title and the description and Open Graph tags at run time, and puts back what was there when the
 * page goes. (Crawlers that run no script see the SPA's defaults: per-page markup at the edge is left for later. No og:image:
 * the creator's picture is a signed URL that expires within the hour.)
 */
export function usePageMeta(meta: PageMeta | undefined): void {
  const { title, description, type } = meta ?? {};
  useEffect(() => {
    if (title === undefined || description === undefined || type === undefined) return;
    const values = { title, description: shorten(description), type, url: window.location.href.split('?')[0]! };
    const previousTitle = document.title;
    document.title = `${title} · ${PRODUCT_NAME}`;
    const restore = tags.map(({ attribute, key, field }) => {
      const found = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
      const previous = found?.getAttribute('content') ?? '';
      const element = found ?? document.createElement('meta');
      if (!found) {
        element.setAttribute(attribute, key);
        document.head.append(element);
      }
      element.setAttribute('content', values[field]);
      return () => (found ? found.setAttribute('content', previous) : element.remove());
    });
    return () => {
      document.title = previousTitle;
      for (const undo of restore) undo();
    };
  }, [title, description, type]);
}
