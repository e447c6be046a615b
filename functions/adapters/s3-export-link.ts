import { presignS3 } from '#adapters/s3-presigner.ts';
import type { ExportLink } from '#core/ports.ts';

/** A presigned GET of the export at `Key` (the full object key) that saves it as `fileName`. */
export const downloadLink = (Key: string, fileName: string, ttlSeconds: number): Promise<string> =>
  presignS3({
    method: 'GET',
    key: Key,
    operation: 'GetObject',
    query: { 'response-content-disposition': `attachment; filename="${fileName.replace(/["\\]/g, '')}"` },
    ttlSeconds,
  });

/**
 * A new link to an export already written under exports/ (capability 'exports'), without the S3 client: the presigner
 * alone, for a route that only hands the link out (GET /api/me/exports/{exportId}).
 */
export const s3ExportLink: ExportLink = (key, { fileName, linkSeconds }) => downloadLink(`exports/${key}`, fileName, linkSeconds);
