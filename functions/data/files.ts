import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { courseFile } from '#contracts/files.ts';
import type { FileRepository, StoredFile } from '#core/files/ports.ts';
import { courseKeys } from '#data/courses.ts';
import { batchWrite, documentClient, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * Course files (access pattern 27: a course's files, a lesson's files). They live in their course's partition, so the
 * course's one read picks them up with its lessons (functions/data/courses.ts) and deleting the course takes them.
 * File:  pk COURSE#<courseId>  sk FILE#<lessonId>#<fileId>
 *        id, courseId, lessonId, creatorId, kind, name, contentType, size, status ('uploading' -> 'ready', once),
 *        uploadId (the S3 multipart upload), s3Key, createdAt
 * A course's files: Query pk, sk begins_with FILE#; a lesson's: begins_with FILE#<lessonId>#; one file by its id alone
 * (a learner's link): the course's FILE# items, eventually consistent, filtered on `id`.
 */
export const fileKeys = {
  file: (courseId: string, lessonId: string, fileId: string) => ({ pk: courseKeys.course(courseId).pk, sk: `${courseKeys.filePrefix}${lessonId}#${fileId}` }),
  lessonPrefix: (lessonId: string) => `${courseKeys.filePrefix}${lessonId}#`,
};

const fileItem = courseFile.extend({ courseId: z.string(), creatorId: z.string(), s3Key: z.string(), uploadId: z.string() });
const toFile = (item: unknown): StoredFile => fileItem.parse(item);

/** Every file under one sort key prefix of the course's partition, page after page. */
const filesUnder = async (courseId: string, prefix: string): Promise<StoredFile[]> => {
  const files: StoredFile[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': courseKeys.course(courseId).pk, ':prefix': prefix },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    files.push(...(page.Items ?? []).map(toFile));
    start = page.LastEvaluatedKey;
  } while (start);
  return files;
};

export const dynamoFiles = (): FileRepository => ({
  async create(file) {
    // The course still the creator's and the lesson still there, with the new item: one transaction.
    const cancelled = await transact([
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: courseKeys.course(file.courseId),
          ConditionExpression: 'attribute_exists(pk) AND creatorId = :me',
          ExpressionAttributeValues: { ':me': file.creatorId },
        },
      },
      { ConditionCheck: { TableName: tableName(), Key: courseKeys.lesson(file.courseId, file.lessonId), ConditionExpression: 'attribute_exists(pk)' } },
      {
        Put: {
          TableName: tableName(),
          Item: { ...fileKeys.file(file.courseId, file.lessonId, file.id), type: 'File', ...file },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
    if (cancelled && cancelled.codes[2] === 'ConditionalCheckFailed') throw new Error(`File id ${file.id} is already taken.`);
    return cancelled ? 'gone' : 'created';
  },

  async get(courseId, lessonId, fileId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: fileKeys.file(courseId, lessonId, fileId), ConsistentRead: true }));
    return Item ? toFile(Item) : undefined;
  },

  listByLesson: (courseId, lessonId) => filesUnder(courseId, fileKeys.lessonPrefix(lessonId)),

  listByCourse: (courseId) => filesUnder(courseId, courseKeys.filePrefix),

  async findInCourse(courseId, fileId) {
    // The file items alone (no lesson, no course item), eventually consistent; only the one asked for comes back.
    const [found] = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#id = :id',
      ExpressionAttributeNames: { '#id': 'id' },
      ExpressionAttributeValues: { ':pk': courseKeys.course(courseId).pk, ':prefix': courseKeys.filePrefix, ':id': fileId },
    }, 1);
    return found ? toFile(found) : undefined;
  },

  async markReady({ courseId, lessonId, id }) {
    const moved = await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: fileKeys.file(courseId, lessonId, id),
          UpdateExpression: 'SET #status = :ready',
          ConditionExpression: '#status = :uploading',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':ready': 'ready', ':uploading': 'uploading' },
        }),
      ),
    );
    return moved ? 'ready' : 'not-uploading';
  },

  delete: (files) => batchWrite(files.map((f) => ({ DeleteRequest: { Key: fileKeys.file(f.courseId, f.lessonId, f.id) } }))),
});
