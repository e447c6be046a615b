import * as z from 'zod';
import { unsubscribeQuery } from '#contracts/campaigns.ts';
import { unsubscribe } from '#core/campaigns/campaigns.ts';
import { donePage, unsubscribePageHeaders } from '#core/campaigns/unsubscribe-page.ts';
import { unsubscribeDeps } from '#functions/composition/deps-campaigns.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** A person's browser (the confirmation page's form) asks for HTML first; a mail client's one-click POST does not. */
const wantsHtml = (accept: string | undefined): boolean => /^\s*text\/html/i.test(accept ?? '');

/**
 * POST /api/unsubscribe?token= (RFC 8058 one-click: the body `List-Unsubscribe=One-Click` is form-encoded and carries
 * nothing more, so it is not read): `{"unsubscribed":true}`, or the done page for a browser; no session needed;
 * a changed token is 400.
 */
export const handler = httpRoute(
  { route: 'unsubscribe', query: unsubscribeQuery, headers: z.object({ accept: z.string().optional() }) },
  async ({ query, headers }): Promise<Reply> => {
    const list = await unsubscribe(unsubscribeDeps(), query.token);
    return wantsHtml(headers.accept) ? Reply.raw(200, donePage(list), unsubscribePageHeaders) : new Reply(200, { unsubscribed: true });
  },
);
