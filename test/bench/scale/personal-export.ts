import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { EXPORT_PART_BYTES, EXPORTS_PREFIX } from '#adapters/s3-export-files.ts';
import { s3Client } from '#adapters/s3-file-store.ts';
import { exportKey } from '#core/personal-exports/personal-exports.ts';
import { SLICE_MARGIN_MS } from '#core/jobs/slices.ts';
import { PERSONAL_EXPORT_JOB } from '#core/personal-exports/ports.ts';
import { dynamoPersonalExports } from '#data/personal-exports.ts';
import { required } from '#functions/config.ts';
import { unzip } from '#test/functions/fakes/unzip.ts';
import { count as formatCount } from '../cloud-part.ts';
import { row, type Row } from '../table.ts';
import type { ScaleJob, Seeded } from './jobs.ts';
import { courseItems, enrolmentItems, learnerId, userItems } from './seed.ts';

/**
 * "Download my data" at size (issue 37 point 1, decision 0062): a creator whose CRM holds `n` learners' enrolment rows
 * on COURSES courses, seeded straight into the table, and their export's job run over it through the engine, as the
 * other jobs. What it counts: every seeded CRM row in the ZIP's creator/crm-learners.json, once (the ZIP read back
 * from the S3 emulator and opened, every file's CRC-32 checked); what it adds: the ZIP's size and parts, and the
 * memory of this process while the job ran (the heap's growth at its peak over the heap before, after a full GC, and
 * the RSS's peak), against a budget that does not grow with the rows.
 */

const COURSES = 5;
/** The job's Lambda: the heavy profile's 30 s (functions/routes.ts), so the bench's slices are the cloud's. */
const TIMEOUT_MS = 30_000;
/** What the job may hold at once, at any size: a part and its copy, a page of records, the runtime's slack. */
const HEAP_BUDGET_BYTES = 64 * 1024 * 1024;

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A full collection, when this process may ask for one (the flag set at run time: the bench's node has none). */
const collect: () => void = (() => {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    return () => gc();
  } catch {
    return () => undefined;
  }
})();

/** This process's memory while a run goes: sampled every 20 ms from `start` to `stop`. */
const memoryWatch = () => {
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  let heapPeak = heapBefore;
  let rssPeak = rssBefore;
  const timer = setInterval(() => {
    const { heapUsed, rss } = process.memoryUsage();
    heapPeak = Math.max(heapPeak, heapUsed);
    rssPeak = Math.max(rssPeak, rss);
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      collect();
      return { growth: heapPeak - heapBefore, kept: process.memoryUsage().heapUsed - heapBefore, rssPeak, rssBefore };
    },
  };
};

interface Measured {
  zipBytes: number;
  memory: ReturnType<ReturnType<typeof memoryWatch>['stop']>;
}

const watches = new Map<string, ReturnType<typeof memoryWatch>>();
const measured = new Map<string, Measured>();

/**
 * The creator's account (their profile and email claim), their courses, the learners' enrolments (the CRM's rows),
 * written a course at a time; nothing of them is held once it returns (the memory watch starts after it).
 */
const seedCreator = async (write: (items: Record<string, unknown>[]) => Promise<void>, tag: string, n: number, creatorId: string): Promise<void> => {
  await write(await userItems(`${tag}-creator`, 1, { role: 'creator' }));
  for (let c = 0; c < COURSES; c++) {
    const course = { id: `${tag}-course${c}`, title: `Export course ${c}`, creatorId };
    const from = Math.floor((c * n) / COURSES);
    const to = Math.floor(((c + 1) * n) / COURSES);
    await write([...(await courseItems(course)), ...(await enrolmentItems(tag, course, from, to - from))]);
  }
};

/**
 * The entry, as `name`, with its Lambda's `timeoutMs`: the job's own 30 s, or slices of a second or two to show that
 * a run cut into many slices writes the same complete ZIP at size. Its kill: after the run's second write (the save
 * after its first part, or the one that says every part is written, at 1,000 rows), a mid-run moment every run
 * has; the bench's own count of write calls takes in the local cloud's stream consumers, which write meanwhile.
 */
const entry = (name: string, timeoutMs: number): ScaleJob => ({
  name,
  modules: [PERSONAL_EXPORT_JOB],
  unit: `CRM rows of one creator (${COURSES} courses)`,
  large: 50_000,
  timeoutMs,
  killAfterWrites: 2,
  async seed(write, tag, n) {
    const creatorId = learnerId(`${tag}-creator`, 0);
    await seedCreator(write, tag, n, creatorId);
    const exportId = `${tag}-export`;
    const at = new Date().toISOString();
    await dynamoPersonalExports().request({ userId: creatorId, exportId, requestedAt: at, staleBefore: at });
    // Its memory from here: the seeding's garbage collected first.
    watches.set(tag, memoryWatch());
    return { tag, n, ids: { creatorId, exportId }, input: { userId: creatorId, exportId } };
  },
  async count({ tag, n, ids }: Seeded) {
    const memory = watches.get(tag)?.stop();
    watches.delete(tag);
    const creatorId = ids!['creatorId']!;
    const exportId = ids!['exportId']!;
    const state = await dynamoPersonalExports().get(creatorId, exportId);
    if (state?.status !== 'ready') return { done: 0, doubled: 0, note: `the export is ${state?.status ?? 'gone'}` };
    const { Body } = await s3Client().send(new GetObjectCommand({ Bucket: required('FILES_BUCKET'), Key: `${EXPORTS_PREFIX}${exportKey(creatorId, exportId)}` }));
    const archive = await Body!.transformToByteArray();
    if (memory) measured.set(tag, { zipBytes: archive.length, memory });
    const files = unzip(archive);
    const crm = JSON.parse(files.get('creator/crm-learners.json')?.toString('utf8') ?? '[]') as { learnerId?: string; courseId?: string }[];
    const seen = new Map<string, number>();
    for (const r of crm) if (r.learnerId?.startsWith(`${tag}-u`)) seen.set(`${r.learnerId} ${r.courseId}`, (seen.get(`${r.learnerId} ${r.courseId}`) ?? 0) + 1);
    const doubled = [...seen.values()].reduce((sum, k) => sum + k - 1, 0);
    return { done: Math.min(n, seen.size), doubled, note: `ZIP ${MB(archive.length)}, ${files.size} files, ${Math.max(1, Math.ceil(archive.length / EXPORT_PART_BYTES))} part(s) of 5 MiB` };
  },
  rows({ tag, n }: Seeded): Row[] {
    const m = measured.get(tag);
    if (!m) return [];
    return [
      row(
        `${name} at ${formatCount(n)}: this process's heap growth at its peak (over the heap before, after a GC), RSS peak`,
        `+${MB(m.memory.growth)} (${m.memory.kept >= 0 ? '+' : ''}${MB(m.memory.kept)} after the run and a GC); RSS ${MB(m.memory.rssPeak)} (${MB(m.memory.rssBefore)} before); the ZIP ${MB(m.zipBytes)}`,
        `< ${MB(HEAP_BUDGET_BYTES)} at any size`,
        m.memory.growth < HEAP_BUDGET_BYTES,
      ),
    ];
  },
});

export const personalExport = entry(PERSONAL_EXPORT_JOB, TIMEOUT_MS);
/** The same run in slices of ~1.5 s of work (the engine's 5 s margin kept back). */
export const personalExportShortSlices = entry(`${PERSONAL_EXPORT_JOB}-short-slices`, SLICE_MARGIN_MS + 1_500);
