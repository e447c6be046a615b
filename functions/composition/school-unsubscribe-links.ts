import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import { unsubscribeHeaders, unsubscribeKey, unsubscribeUrl } from '#core/campaigns/campaigns.ts';
import { schoolList, type UnsubscribeList } from '#core/campaigns/email-content.ts';
import type { SecretCipher } from '#core/ports.ts';
import { readUnsubscribeKey } from '#data/campaigns.ts';

let cipher: SecretCipher | undefined;

/**
 * The unsubscribe link (and its List-Unsubscribe headers) of an address on one list: a job's emails that are not
 * campaigns (the school's, the creators' comment digest). The signing key is read and decrypted at the first link a
 * job's run needs, once for the run; a failed read is tried again at the next link rather than kept.
 */
export const unsubscribeLinks = (origin: string) => {
  let key: Promise<Uint8Array> | undefined;
  const keyOnce = () => {
    key ??= unsubscribeKey({ campaigns: { unsubscribeKey: readUnsubscribeKey }, cipher: (cipher ??= envelopeCipher()) });
    key.catch(() => (key = undefined));
    return key;
  };
  return async (email: string, list: UnsubscribeList): Promise<{ url: string; headers: { name: string; value: string }[] }> => {
    const url = unsubscribeUrl(origin, await keyOnce(), email, list);
    return { url, headers: unsubscribeHeaders(url) };
  };
};

/**
 * The unsubscribe link of a creator's school mail to a learner: the email sequences' and the discussion replies' (the
 * school's list, as its campaigns').
 */
export const schoolUnsubscribeLinks = (origin: string) => {
  const link = unsubscribeLinks(origin);
  return (creatorId: string, email: string) => link(email, schoolList(creatorId));
};
