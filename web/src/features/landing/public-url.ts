import { getConfig } from '@/lib/config.ts';

/**
 * Where a published page is public: on the pages origin (config `PagesUrl`), never the app's own, so the page
 * shares no storage or cookies with the app. Without PagesUrl the link is just the path.
 */
export const publicPageUrl = (path: string): string => `${getConfig().PagesUrl ?? ''}${path}`;
