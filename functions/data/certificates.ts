import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { CertificateRepository, StoredCertificate } from '#core/ports.ts';
import { countersUpdate } from '#data/counters.ts';
import { creatorStatsUpdate } from '#data/courses.ts';
import { enrollmentKeys } from '#data/enrollments.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { documentClient, failedAt, indexPage, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * Certificates (issue 15; docs/data-model.md "Certificates"; decision 0021).
 * Certificate:  pk CERT#<id>            sk CERT        the record and its VC-JWT (a re-issued one, revoked, keeps
 *                                                      `replacedBy` and leaves both lists)
 *               gsi1pk LEARNER#<learnerId>#CERTS  gsi1sk <issuedAt>#<id>   (the learner's certificates, newest first,
 *                                                                          a page at a time)
 *               gsi2pk COURSE#<courseId>#CERTS    gsi2sk <issuedAt>#<id>   (a course's, for its creator)
 * Guard:        pk COURSE#<courseId>    sk CERTFOR#<learnerId>   certificateId (one per course and learner)
 * Due:          the enrolment itself, gsi3pk CERTS#DUE gsi3sk <completedAt>#<courseId>#<learnerId>, set by the
 *               completing write (functions/data/enrollments.ts), removed by the issuing transaction.
 * First key:    pk PLATFORM  sk CERT_SIGNING_KEY   kid, sealed (the Ed25519 private JWK, no longer opened), publicJwk
 * KMS keys:     pk PLATFORM  sk CERT_KEY#<kid>     kid, publicJwk (each KMS key that signed, published; decision 0030)
 * Status index: pk PLATFORM  sk CERT_STATUS_INDEX  next (ADD 1 per certificate, over all lists)
 * Revoked:      pk PLATFORM  sk CERT_REVOKED[#<list>]  revoked (a number set of indexes in that list), version (ADD 1
 *               per change); list 0 keeps the key it had before lists were paged
 * Published:    pk PLATFORM  sk CERT_STATUS_LIST#<list>  jwt (the signed list), version (of the revocations it shows)
 */
export const certificateKeys = {
  certificate: (id: string) => ({ pk: `CERT#${id}`, sk: 'CERT' }),
  guard: (courseId: string, learnerId: string) => ({ pk: `COURSE#${courseId}`, sk: `CERTFOR#${learnerId}` }),
  byLearner: (c: Pick<StoredCertificate, 'learnerId' | 'issuedAt' | 'id'>) => ({ gsi1pk: `LEARNER#${c.learnerId}#CERTS`, gsi1sk: `${c.issuedAt}#${c.id}` }),
  byCourse: (c: Pick<StoredCertificate, 'courseId' | 'issuedAt' | 'id'>) => ({ gsi2pk: `COURSE#${c.courseId}#CERTS`, gsi2sk: `${c.issuedAt}#${c.id}` }),
  signingKey: { pk: 'PLATFORM', sk: 'CERT_SIGNING_KEY' },
  kmsKey: (kid: string) => ({ pk: 'PLATFORM', sk: `CERT_KEY#${kid}` }),
  statusIndex: { pk: 'PLATFORM', sk: 'CERT_STATUS_INDEX' },
  revoked: (list: number) => ({ pk: 'PLATFORM', sk: list === 0 ? 'CERT_REVOKED' : `CERT_REVOKED#${list}` }),
  publishedList: (list: number) => ({ pk: 'PLATFORM', sk: `CERT_STATUS_LIST#${list}` }),
};

const certificateItem = z.object({
  id: z.string(),
  courseId: z.string(),
  learnerId: z.string(),
  creatorId: z.string(),
  learnerEmail: z.string(),
  // Certificates issued before learners could give a name have none.
  learnerName: z.string().nullable().default(null),
  courseTitle: z.string(),
  creatorName: z.string(),
  issuedAt: z.string(),
  // Certificates issued before lists were paged are in the first.
  statusList: z.number().int().default(0),
  statusIndex: z.number().int(),
  jwt: z.string(),
  status: z.enum(['valid', 'revoked']),
  revokedAt: z.string().nullable(),
  revocationReason: z.string().nullable(),
});
const keyItem = z.object({ kid: z.string(), publicJwk: z.record(z.string(), z.unknown()) });
const publishedItem = z.object({ jwt: z.string(), version: z.number().int() });

/** The update that sets `index` in its list's revocations and moves their version (the list is signed again). */
const revokedUpdate = (table: string, c: Pick<StoredCertificate, 'statusList' | 'statusIndex'>) => ({
  Update: {
    TableName: table,
    Key: certificateKeys.revoked(c.statusList),
    UpdateExpression: 'ADD revoked :index, version :one SET #type = :type',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':index': new Set([c.statusIndex]), ':one': 1, ':type': 'CertificateRevocations' },
  },
});

const newestFirst = (a: StoredCertificate, b: StoredCertificate) => b.issuedAt.localeCompare(a.issuedAt) || b.id.localeCompare(a.id);

const readFirstKey = async () => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: certificateKeys.signingKey }));
  return Item ? keyItem.parse(Item) : undefined;
};

export const dynamoCertificates = (): CertificateRepository => ({
  async publicKeys() {
    const [first, { Items }] = await Promise.all([
      readFirstKey(),
      documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :keys)',
          ExpressionAttributeValues: { ':pk': 'PLATFORM', ':keys': 'CERT_KEY#' },
        }),
      ),
    ]);
    return [...(first ? [first.publicJwk] : []), ...(Items ?? []).map((item) => keyItem.parse(item).publicJwk)];
  },

  async publishKey(key) {
    await writeIf(() =>
      documentClient().send(
        new PutCommand({ TableName: tableName(), Item: { ...certificateKeys.kmsKey(key.kid), type: 'CertificateKey', ...key }, ConditionExpression: 'attribute_not_exists(pk)' }),
      ),
    );
  },

  async due(limit) {
    const items = await queryAll(
      { IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :due', ExpressionAttributeValues: { ':due': 'CERTS#DUE' }, ProjectionExpression: 'courseId, learnerId' },
      limit,
    );
    return items.map((item) => ({ courseId: String(item['courseId']), learnerId: String(item['learnerId']) }));
  },

  async clearDue(courseId, learnerId) {
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: enrollmentKeys.enrollment(courseId, learnerId),
          UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
          ConditionExpression: 'attribute_exists(pk)',
        }),
      ),
    );
  },

  async nextStatusIndex() {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: certificateKeys.statusIndex,
        UpdateExpression: 'ADD #next :one SET #type = :type',
        ExpressionAttributeNames: { '#next': 'next', '#type': 'type' },
        ExpressionAttributeValues: { ':one': 1, ':type': 'CertificateStatusIndex' },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.['next']) - 1;
  },

  async statusIndexesAllocated() {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: certificateKeys.statusIndex, ConsistentRead: true }));
    return Number(Item?.['next'] ?? 0);
  },

  async issue(certificate, email) {
    const table = tableName();
    const cancelled = await transact([
      {
        Put: {
          TableName: table,
          Item: { ...certificateKeys.certificate(certificate.id), type: 'Certificate', ...certificate, ...certificateKeys.byLearner(certificate), ...certificateKeys.byCourse(certificate) },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: table,
          Item: { ...certificateKeys.guard(certificate.courseId, certificate.learnerId), type: 'CertificateGuard', certificateId: certificate.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: table,
          Key: enrollmentKeys.enrollment(certificate.courseId, certificate.learnerId),
          UpdateExpression: 'SET certificateId = :id REMOVE gsi3pk, gsi3sk',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':id': certificate.id },
        },
      },
      ...countersUpdate({ certificates_issued: 1 }),
      ...creatorStatsUpdate(certificate.creatorId, { certificates: 1 }),
      mailQueuePut(email),
    ]);
    if (!cancelled) return 'issued';
    if (failedAt(cancelled, 1)) return 'exists';
    throw new Error(`certificate ${certificate.id} could not be written (${cancelled.codes.join(', ')})`);
  },

  async get(id) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: certificateKeys.certificate(id) }));
    return Item ? certificateItem.parse(Item) : undefined;
  },

  async heldFor(courseId, learnerId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: certificateKeys.guard(courseId, learnerId), ConsistentRead: true }));
    return typeof Item?.['certificateId'] === 'string' ? this.get(Item['certificateId']) : undefined;
  },

  async listByLearner(learnerId) {
    const items = await queryAll({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `LEARNER#${learnerId}#CERTS` } });
    return items.map((item) => certificateItem.parse(item)).sort(newestFirst);
  },

  async pageByLearner(learnerId, { cursor, limit }) {
    const partition = `LEARNER#${learnerId}#CERTS`;
    const page = await indexPage({ index: 'gsi1', partition, cursor, limit, cursorKey: { fixed: { sk: 'CERT' }, sortPrefix: { name: 'pk', prefix: 'CERT#' } } });
    return { items: page.items.map((item) => certificateItem.parse(item)), nextCursor: page.nextCursor };
  },

  async listByCourse(courseId, { cursor, limit }) {
    // Newest first by the index's sort key (<issuedAt>#<id>); a cursor must stop inside this course's partition.
    const partition = `COURSE#${courseId}#CERTS`;
    const page = await indexPage({ index: 'gsi2', partition, cursor, limit, cursorKey: { fixed: { sk: 'CERT' }, sortPrefix: { name: 'pk', prefix: 'CERT#' } } });
    return { items: page.items.map((item) => certificateItem.parse(item)), nextCursor: page.nextCursor };
  },

  async revoke(id, at, reason) {
    const current = await this.get(id);
    if (!current) return false;
    const cancelled = current.status !== 'valid' || await transact([
      {
        Update: {
          TableName: tableName(),
          Key: certificateKeys.certificate(id),
          UpdateExpression: 'SET #status = :revoked, revokedAt = :at, revocationReason = :reason',
          ConditionExpression: '#status = :valid',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':revoked': 'revoked', ':valid': 'valid', ':at': at, ':reason': reason },
        },
      },
      revokedUpdate(tableName(), current),
      ...creatorStatsUpdate(current.creatorId, { certificates: -1 }),
    ]);
    // A revoked certificate no longer counts on the enrolment (the learner's and the team's figures): also after a
    // revocation whose second write failed (a repeat finishes it); the enrolment may be gone with its course.
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: enrollmentKeys.enrollment(current.courseId, current.learnerId),
          UpdateExpression: 'REMOVE certificateId',
          ConditionExpression: 'certificateId = :id',
          ExpressionAttributeValues: { ':id': id },
        }),
      ),
    );
    return !cancelled;
  },

  async reissue(previous, next, reason, at) {
    const table = tableName();
    const cancelled = await transact([
      {
        // The previous credential revoked, off the learner's and the course's lists (its page still says why).
        Update: {
          TableName: table,
          Key: certificateKeys.certificate(previous.id),
          UpdateExpression: 'SET #status = :revoked, revokedAt = :at, revocationReason = :reason, replacedBy = :next REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk',
          ConditionExpression: '#status = :valid',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':revoked': 'revoked', ':valid': 'valid', ':at': at, ':reason': reason, ':next': next.id },
        },
      },
      {
        Put: {
          TableName: table,
          Item: { ...certificateKeys.certificate(next.id), type: 'Certificate', ...next, ...certificateKeys.byLearner(next), ...certificateKeys.byCourse(next) },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      revokedUpdate(table, previous),
      {
        Put: {
          TableName: table,
          Item: { ...certificateKeys.guard(next.courseId, next.learnerId), type: 'CertificateGuard', certificateId: next.id },
        },
      },
    ]);
    if (cancelled) {
      if (failedAt(cancelled, 0)) return 'gone';
      throw new Error(`certificate ${previous.id} could not be re-issued (${cancelled.codes.join(', ')})`);
    }
    // The enrolment's certificate is the new one (while it still names the previous: a revocation may have cleared it).
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: enrollmentKeys.enrollment(next.courseId, next.learnerId),
          UpdateExpression: 'SET certificateId = :next',
          ConditionExpression: 'certificateId = :previous',
          ExpressionAttributeValues: { ':next': next.id, ':previous': previous.id },
        }),
      ),
    );
    return 'reissued';
  },

  async revocations(list = 0) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: certificateKeys.revoked(list), ConsistentRead: true }));
    const revoked = Item?.['revoked'] as Set<number> | undefined;
    return { indexes: revoked ? [...revoked].map(Number) : [], version: Number(Item?.['version'] ?? 0) };
  },

  async publishedStatusList(list) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: certificateKeys.publishedList(list) }));
    return Item ? publishedItem.parse(Item) : undefined;
  },

  async publishStatusList(list, published) {
    await writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...certificateKeys.publishedList(list), type: 'CertificateStatusList', ...published },
          // Two runs signing at once: the newer version stays.
          ConditionExpression: 'attribute_not_exists(pk) OR version < :version',
          ExpressionAttributeValues: { ':version': published.version },
        }),
      ),
    );
  },
});
