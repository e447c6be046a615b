import { describe, expect, it } from 'vitest';
import { post, sellingCreator, signInFromInvitation, untilSettled } from './faults/support.ts';
import { mailsTo } from './mail-support.ts';
import { api, eventually, uniqueEmail } from './support.ts';

/**
 * Issue 28 point 4: the Connect webhook answers fast. Each new buyer pays on the stand-in's hosted page, whose answer
 * comes after the webhook's first delivery answered (lib/local/stripe/webhooks.ts): its time is the webhook's answer
 * time plus the page's own few ms. The buyer's account and invitation follow from the queue within a minute (the
 * webhook starts the sender job at once), and the buyer signs in with it, enrolled.
 */
const BUYERS = 6;

describe('the Connect webhook of a paid course order', () => {
  it('answers without waiting for the account or the mail, and the new buyer is invited within a minute', async () => {
    const { courseId, origin } = await sellingCreator('webhook-answer-creator', 1200);
    const buyers = Array.from({ length: BUYERS }, (_, i) => uniqueEmail(`webhook-answer-${i}`));
    const times: number[] = [];
    for (const [i, email] of buyers.entries()) {
      const started = await untilSettled(
        post(`/api/public/courses/${courseId}/checkout`, { email, successUrl: `${origin}/c/${courseId}?purchase=success`, cancelUrl: `${origin}/c/${courseId}` }, { 'idempotency-key': `webhook-answer-${courseId}-${i}` }),
      );
      const at = performance.now();
      const paid = await fetch(`${(started.body as { url: string }).url}/pay`, { method: 'POST', redirect: 'manual' });
      times.push(performance.now() - at);
      expect(paid.status).toBe(303);
    }
    const sorted = [...times].sort((a, b) => a - b);
    process.stderr.write(`[webhook answer] pay (webhook delivered) ms: ${times.map((t) => t.toFixed(0)).join(', ')}; median ${sorted[Math.floor(BUYERS / 2)]!.toFixed(0)}\n`);
    for (const email of buyers) {
      await eventually(() => mailsTo(email), (mails) => mails.some((m) => /Temporary password/.test(m.body.text ?? '')), 60_000);
      const token = await signInFromInvitation(email);
      const courses = (await api('GET', '/api/learner/courses', { token })).body.items as { courseId: string }[];
      expect(courses.filter((c) => c.courseId === courseId), `${email} enrolled once`).toHaveLength(1);
      const passwords = (await mailsTo(email)).filter((m) => /Temporary password/.test(m.body.text ?? ''));
      expect(passwords, `${email} invited once`).toHaveLength(1);
    }
  }, 240_000);
});
