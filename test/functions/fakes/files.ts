import type { FileRepository, FileStore, StoredFile, UploadedPart } from '#core/files/ports.ts';
import { copy, withHooks } from './hooks.ts';

/**
 * File items with the conditions of functions/data/files.ts: a file is created only while its course is the creator's
 * and its lesson exists (`exists` answers that, from the courses fake), and goes 'uploading' -> 'ready' once.
 */
export const memoryFiles = (exists: (file: StoredFile) => Promise<boolean> = async () => true) => {
  const files = new Map<string, StoredFile>();
  const repo = withHooks<FileRepository>({
    async create(file) {
      if (!(await exists(file))) return 'gone';
      if (files.has(file.id)) throw new Error(`File id ${file.id} is already taken.`);
      files.set(file.id, copy(file));
      return 'created';
    },
    async get(courseId, lessonId, fileId) {
      const file = files.get(fileId);
      return file && file.courseId === courseId && file.lessonId === lessonId ? copy(file) : undefined;
    },
    async listByLesson(courseId, lessonId) {
      return copy([...files.values()].filter((f) => f.courseId === courseId && f.lessonId === lessonId));
    },
    async listByCourse(courseId) {
      return copy([...files.values()].filter((f) => f.courseId === courseId));
    },
    async findInCourse(courseId, fileId) {
      const file = files.get(fileId);
      return file?.courseId === courseId ? copy(file) : undefined;
    },
    async markReady({ id }) {
      const file = files.get(id);
      if (file?.status !== 'uploading') return 'not-uploading';
      file.status = 'ready';
      return 'ready';
    },
    async delete(gone) {
      for (const f of gone) files.delete(f.id);
    },
  });
  return Object.assign(repo, { all: (): StoredFile[] => [...files.values()] });
};

/**
 * The bucket: multipart uploads and objects in memory. `put(key, uploadId, partNumber, bytes)` is the browser's PUT to
 * a part URL; a completed upload becomes an object with the upload's declared content type.
 */
export const memoryFileStore = () => {
  const uploads = new Map<string, { key: string; contentType: string; parts: Map<number, number> }>();
  const objects = new Map<string, { size: number; contentType: string }>();
  let next = 0;
  const store = withHooks<FileStore>({
    async startMultipart(key, contentType) {
      const uploadId = `upload-${++next}`;
      uploads.set(uploadId, { key, contentType, parts: new Map() });
      return uploadId;
    },
    async partUrl(key, uploadId, partNumber, contentLength, ttlSeconds) {
      return `https://files.test/${key}?uploadId=${uploadId}&partNumber=${partNumber}&length=${contentLength}&expires=${ttlSeconds}`;
    },
    async listParts(_key, uploadId) {
      const upload = uploads.get(uploadId);
      if (!upload) return 'no-upload';
      return [...upload.parts].sort(([a], [b]) => a - b).map(([partNumber, size]): UploadedPart => ({ partNumber, size, etag: `"etag-${partNumber}"` }));
    },
    async complete(key, uploadId, parts) {
      const upload = uploads.get(uploadId);
      if (!upload) return 'no-upload';
      if (parts.some((p) => p.etag !== `"etag-${p.partNumber}"` || !upload.parts.has(p.partNumber))) return 'invalid-parts';
      objects.set(key, { size: parts.reduce((sum, p) => sum + upload.parts.get(p.partNumber)!, 0), contentType: upload.contentType });
      uploads.delete(uploadId);
      return 'completed';
    },
    async head(key) {
      return objects.get(key) && { ...objects.get(key)! };
    },
    async downloadUrl(key, { disposition, ttlSeconds }) {
      return `https://files.test/${key}?disposition=${encodeURIComponent(disposition)}&expires=${ttlSeconds}`;
    },
    async abort(_key, uploadId) {
      uploads.delete(uploadId);
    },
    async deleteObjects(keys) {
      for (const key of keys) objects.delete(key);
    },
  });
  return Object.assign(store, {
    /** The browser PUTs `size` bytes as part `partNumber`. */
    put(uploadId: string, partNumber: number, size: number) {
      uploads.get(uploadId)!.parts.set(partNumber, size);
    },
    /** Test setup: the object's stored type differs from the declared one (a tampered upload). */
    retype(key: string, contentType: string) {
      objects.set(key, { ...objects.get(key)!, contentType });
    },
    /** Test setup: an object already stored (an upload completed before the test). */
    putObject(key: string, size: number, contentType: string) {
      objects.set(key, { size, contentType });
    },
    objectKeys: () => [...objects.keys()],
    openUploads: () => [...uploads.keys()],
  });
};
