import type { SessionMailClaim } from '#core/live-sessions/invitations.ts';
import type { QueuedMail } from '#core/ports.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { tableName, transact } from '#data/table.ts';

/**
 * A learner's claims on a session's emails (issue 30 point 3, core/live-sessions/invitations.ts): what each learner
 * was last sent, so each email goes exactly once per version.
 * Claim: pk SESSION#<sessionId>  sk MAIL#<learnerId>  type 'SessionMailClaim', learnerId, invitedSequence (the SEQUENCE
 *        last invited with, or cancelled with), remindedFor (the start last reminded of), updatedAt
 *        (in the session's partition; nothing queries it: read only by the conditions below)
 *
 * The claim is written in the same transaction as the queued email (data/mail-queue.ts), not at send time: the email
 * is then queued exactly once per claim, and the mail queue (decisions 0023, 0026) delivers it at least once, retrying
 * a failed send on its own. A claim at send time would have to be given back when the send fails, and a sender that
 * died between the two would lose the email or send it twice; here the only duplicate left is the mail queue's own
 * (a send whose removal failed), as for every other platform email.
 * - invitation of version n: only while `invitedSequence` is absent or below n;
 * - cancellation of version n: only while `invitedSequence` exists and is below n (a learner never invited is not told);
 * - reminder of start s: only while `remindedFor` is not s.
 */
export const sessionMailKeys = {
  claim: (sessionId: string, learnerId: string) => ({ pk: `SESSION#${sessionId}`, sk: `MAIL#${learnerId}` }),
};

const conditionOf = (claim: SessionMailClaim) => {
  if (claim.kind === 'reminder') {
    return { set: 'remindedFor = :v', condition: 'attribute_not_exists(remindedFor) OR remindedFor <> :v', value: claim.startsAt };
  }
  const condition = claim.kind === 'invitation' ? 'attribute_not_exists(invitedSequence) OR invitedSequence < :v' : 'attribute_exists(invitedSequence) AND invitedSequence < :v';
  return { set: 'invitedSequence = :v', condition, value: claim.sequence };
};

/** The claim and the queued email in one transaction: false (nothing written) when the claim's condition does not hold. */
export const queueSessionMail = async (sessionId: string, learnerId: string, claim: SessionMailClaim, mail: QueuedMail): Promise<boolean> => {
  const { set, condition, value } = conditionOf(claim);
  const cancelled = await transact([
    {
      Update: {
        TableName: tableName(),
        Key: sessionMailKeys.claim(sessionId, learnerId),
        UpdateExpression: `SET ${set}, #type = :type, learnerId = :learner, updatedAt = :at`,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':v': value, ':type': 'SessionMailClaim', ':learner': learnerId, ':at': mail.queuedAt },
      },
    },
    mailQueuePut(mail),
  ]);
  return !cancelled;
};
