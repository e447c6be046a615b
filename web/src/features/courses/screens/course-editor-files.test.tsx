import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Course, Lesson } from '@contracts/courses.ts';
import { UPLOAD_PART_BYTES, type CourseFile } from '@contracts/files.ts';
import { toast } from '@/components/ui/toaster.tsx';
import type { fakeApi} from '@/test/render.tsx';
import { callsTo, jsonResponse } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { paintingCourse, textLesson, videoLesson } from '../test/fixtures.ts';
import { COURSE, renderCourseEditor } from '../test/render-editor.tsx';

// The course editor's files (issue 10 point 2): uploading a lesson's video and attachments straight to the storage,
// with progress, cancel and resume. The API is faked by route, the storage by a stand-in XMLHttpRequest.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const MiB = 1024 * 1024;
const at = '2026-11-23T10:00:00.000Z';

/** The storage's stand-in: every PUT waits in `puts` until the test answers it. */
const puts: FakeStorageXhr[] = [];
class FakeStorageXhr {
  status = 0;
  url = '';
  bytes = 0;
  upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  aborted = false;
  open(_method: string, url: string) {
    this.url = url;
  }
  send(body: Blob) {
    this.bytes = body.size;
    puts.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  getResponseHeader(name: string) {
    return name.toLowerCase() === 'etag' ? `"etag-${this.part}"` : null;
  }
  get part() {
    return Number(new URL(this.url).searchParams.get('partNumber'));
  }
  finish() {
    this.upload.onprogress?.({ loaded: this.bytes });
    this.status = 200;
    this.onload?.();
  }
}
beforeEach(() => {
  puts.length = 0;
  vi.stubGlobal('XMLHttpRequest', FakeStorageXhr);
});

const fileOf = (name: string, type: string, size: number) => {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  // The uploader slices parts out of it: a slice of the declared size.
  Object.defineProperty(file, 'slice', { value: (start: number, end: number) => new Blob([new Uint8Array(Math.min(end, size) - start)]) });
  return file;
};

const storedFile = (over: Partial<CourseFile>): CourseFile => ({
  id: 'file-1',
  lessonId: videoLesson.id,
  kind: 'video',
  name: 'wash.mp4',
  contentType: 'video/mp4',
  size: 20 * MiB,
  status: 'uploading',
  createdAt: at,
  ...over,
});

/** The API: the course and every file route, answering from `state`. */
function renderEditor(course: Course, extra: Parameters<typeof fakeApi>[0] = {}) {
  const state = { course };
  const partUrls = (init?: RequestInit) => {
    const { partNumbers } = JSON.parse(init!.body as string) as { partNumbers: number[] };
    return jsonResponse(200, {
      parts: partNumbers.map((n) => ({ partNumber: n, url: `https://s3.test/obj?partNumber=${n}`, size: UPLOAD_PART_BYTES })),
      expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
    });
  };
  const { fetchMock, ...rendered } = renderCourseEditor(() => state.course, {
    [`POST ${COURSE}/files/file-1/parts`]: partUrls,
    [`DELETE ${COURSE}/files/file-1`]: () => new Response(null, { status: 204 }),
    ...extra,
  });
  return { ...rendered, fetchMock, state };
}

const withLessons = (...lessons: Lesson[]): Course => ({ ...paintingCourse, lessons });

describe('CourseEditorScreen: uploading a lesson video', () => {
  it('adds a video lesson by upload: the bar shows the bytes sent, and the video is listed once complete', async () => {
    const created: Lesson = { ...videoLesson, videoUrl: null };
    const { user, fetchMock, state } = renderEditor(withLessons(textLesson), {
      [`POST ${COURSE}/lessons`]: () => {
        state.course = withLessons(textLesson, created);
        return jsonResponse(201, created);
      },
      [`POST ${COURSE}/lessons/lesson-2/files`]: () => jsonResponse(201, { file: storedFile({ size: 20 * MiB }), partSize: UPLOAD_PART_BYTES, partCount: 3 }),
      [`POST ${COURSE}/files/file-1/complete`]: () => {
        const ready = storedFile({ status: 'ready' });
        state.course = withLessons(textLesson, { ...created, files: [ready] });
        return jsonResponse(200, ready);
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Add lesson' }));
    const dialog = screen.getByRole('dialog', { name: 'Add lesson' });
    await user.type(within(dialog).getByRole('textbox', { name: /Lesson title/ }), 'First wash');
    await user.click(within(dialog).getByRole('radio', { name: 'Video' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Upload a video' }));
    const input = within(dialog).getByLabelText('Video file');
    expect(input).toHaveAttribute('accept', expect.stringContaining('.mp4'));
    fireEvent.change(input, { target: { files: [fileOf('wash.mp4', 'video/mp4', 20 * MiB)] } });
    await user.click(within(dialog).getByRole('button', { name: 'Add lesson' }));

    expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons`)[0]?.body).toEqual({ title: 'First wash', kind: 'video', release: { kind: 'immediate' } });
    await vi.waitFor(() => expect(puts).toHaveLength(3));
    expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons/lesson-2/files`)[0]?.body).toEqual({ kind: 'video', name: 'wash.mp4', contentType: 'video/mp4', size: 20 * MiB });

    puts.find((p) => p.part === 1)!.finish();
    const bar = await screen.findByRole('progressbar', { name: 'Uploading wash.mp4' });
    await vi.waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '40'));
    expect(screen.getByText('40% · 8 MB of 20 MB')).toBeInTheDocument();

    for (const put of puts.filter((p) => p.part !== 1)) put.finish();
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Video uploaded', { description: 'wash.mp4 (20 MB)' }));
    expect(callsTo(fetchMock, 'POST', `${COURSE}/files/file-1/complete`)[0]?.body).toEqual({
      parts: [1, 2, 3].map((n) => ({ partNumber: n, etag: `"etag-${n}"` })),
    });
    expect(await screen.findByTestId('lesson-video-file')).toHaveTextContent('wash.mp4 · 20 MB');
    expect(screen.queryByRole('progressbar', { name: 'Uploading wash.mp4' })).not.toBeInTheDocument();
    // A whole dialog typed key by key and a three-part upload: longer than the default 5 s on a busy machine.
  }, 20_000);

  it('refuses a video of the wrong type or over 2 GB before asking the server anything', async () => {
    const { user, fetchMock } = renderEditor(withLessons({ ...videoLesson, videoUrl: null }));
    await user.click(await screen.findByRole('button', { name: 'Edit First wash' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit lesson' });
    await user.click(within(dialog).getByRole('radio', { name: 'Upload a video' }));
    const input = within(dialog).getByLabelText('Video file');

    fireEvent.change(input, { target: { files: [fileOf('clip.mov', 'video/quicktime', MiB)] } });
    expect(input).toHaveAccessibleDescription(/Upload an \.mp4 or \.webm video/);
    fireEvent.change(input, { target: { files: [fileOf('huge.mp4', 'video/mp4', 2049 * MiB)] } });
    expect(input).toHaveAccessibleDescription(/A video can be up to 2 GB/);
    await user.click(within(dialog).getByRole('button', { name: 'Save lesson' }));

    expect(fetchMock.mock.calls.filter(([, init]) => init?.method && init.method !== 'GET')).toEqual([]);
  });

  it('cancels an upload in progress: the parts stop and the file is deleted', async () => {
    const lesson: Lesson = { ...videoLesson, videoUrl: null };
    const { user, fetchMock } = renderEditor(withLessons(lesson), {
      [`POST ${COURSE}/lessons/lesson-2/files`]: () => jsonResponse(201, { file: storedFile({}), partSize: UPLOAD_PART_BYTES, partCount: 3 }),
    });

    fireEvent.change(await screen.findByLabelText('Video file for First wash'), { target: { files: [fileOf('wash.mp4', 'video/mp4', 20 * MiB)] } });
    await vi.waitFor(() => expect(puts).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Cancel the upload of wash.mp4' }));

    await vi.waitFor(() => expect(callsTo(fetchMock, 'DELETE', `${COURSE}/files/file-1`)).toHaveLength(1));
    expect(puts.every((p) => p.aborted)).toBe(true);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('resumes an interrupted upload with the same file, sending only the parts the storage lacks', async () => {
    const lesson: Lesson = { ...videoLesson, videoUrl: null, files: [storedFile({})] };
    const { fetchMock } = renderEditor(withLessons(lesson), {
      [`GET ${COURSE}/files/file-1/parts`]: () => jsonResponse(200, { parts: [{ partNumber: 1, etag: '"held-1"', size: UPLOAD_PART_BYTES }] }),
      [`POST ${COURSE}/files/file-1/complete`]: () => jsonResponse(200, storedFile({ status: 'ready' })),
    });

    const interrupted = await screen.findByTestId('upload-interrupted');
    expect(interrupted).toHaveTextContent('Upload interrupted');
    expect(within(interrupted).getByRole('button', { name: 'Resume' })).toBeInTheDocument();

    const input = screen.getByLabelText('Pick wash.mp4 again to resume');
    fireEvent.change(input, { target: { files: [fileOf('other.mp4', 'video/mp4', 20 * MiB)] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Pick the same file to resume: wash.mp4 (20 MB).');

    fireEvent.change(input, { target: { files: [fileOf('wash.mp4', 'video/mp4', 20 * MiB)] } });
    await vi.waitFor(() => expect(puts.map((p) => p.part).sort()).toEqual([2, 3]));
    expect(screen.getByRole('progressbar', { name: 'Uploading wash.mp4' })).toHaveAttribute('aria-valuenow', '40');
    for (const put of puts) put.finish();

    await vi.waitFor(() => expect(callsTo(fetchMock, 'POST', `${COURSE}/files/file-1/complete`)).toHaveLength(1));
    expect(callsTo(fetchMock, 'POST', `${COURSE}/files/file-1/complete`)[0]?.body).toEqual({
      parts: [
        { partNumber: 1, etag: '"held-1"' },
        { partNumber: 2, etag: '"etag-2"' },
        { partNumber: 3, etag: '"etag-3"' },
      ],
    });
  });

  it('previews an uploaded video through its signed URL', async () => {
    const lesson: Lesson = { ...videoLesson, videoUrl: null, files: [storedFile({ status: 'ready' })] };
    const { user } = renderEditor(withLessons(lesson), {
      [`GET ${COURSE}/files/file-1/url`]: () => jsonResponse(200, { url: 'https://s3.test/wash.mp4?sig=1', expiresAt: at }),
    });

    await user.click(await screen.findByRole('button', { name: 'Preview' }));

    expect(await screen.findByLabelText('Preview: wash.mp4')).toHaveAttribute('src', 'https://s3.test/wash.mp4?sig=1');
  });
});

describe('CourseEditorScreen: attachments', () => {
  const pdf = storedFile({ id: 'file-9', lessonId: textLesson.id, kind: 'attachment', name: 'palette.pdf', contentType: 'application/pdf', size: 240 * 1024, status: 'ready' });

  it('lists each attachment with its size and removes one only after the confirmation', async () => {
    const { user, fetchMock, state } = renderEditor(withLessons({ ...textLesson, files: [pdf] }), {
      [`DELETE ${COURSE}/files/file-9`]: () => {
        state.course = withLessons(textLesson);
        return new Response(null, { status: 204 });
      },
    });

    const list = await screen.findByRole('region', { name: 'Attachments of Colour theory' });
    expect(within(list).getByText('palette.pdf')).toBeInTheDocument();
    expect(within(list).getByText('240 KB')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Remove palette.pdf' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove “palette.pdf”?' });
    expect(callsTo(fetchMock, 'DELETE', `${COURSE}/files/file-9`)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Remove attachment' }));

    await vi.waitFor(() => expect(within(screen.getByRole('region', { name: 'Attachments of Colour theory' })).queryByText('palette.pdf')).not.toBeInTheDocument());
    expect(toast.success).toHaveBeenCalledWith('Attachment removed', { description: 'palette.pdf' });
    expect(callsTo(fetchMock, 'DELETE', `${COURSE}/files/file-9`)).toHaveLength(1);
  });

  it('uploads a PDF attachment and refuses a file of another type with the contract’s message', async () => {
    const { fetchMock } = renderEditor(withLessons(textLesson), {
      [`POST ${COURSE}/lessons/lesson-1/files`]: () =>
        jsonResponse(201, { file: storedFile({ ...pdf, status: 'uploading', id: 'file-1' }), partSize: UPLOAD_PART_BYTES, partCount: 1 }),
      [`POST ${COURSE}/files/file-1/complete`]: () => jsonResponse(200, { ...pdf, id: 'file-1' }),
    });
    const input = await screen.findByLabelText('Attachment file for Colour theory');
    expect(input).toHaveAttribute('accept', expect.stringContaining('application/pdf'));

    fireEvent.change(input, { target: { files: [fileOf('notes.docx', 'application/msword', 1024)] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Upload an .mp4 or .webm video, or a PDF or image');

    fireEvent.change(input, { target: { files: [fileOf('palette.pdf', 'application/pdf', 240 * 1024)] } });
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.bytes).toBe(240 * 1024);
    puts[0]!.finish();
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Attachment added', { description: 'palette.pdf (240 KB)' }));
    expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons/lesson-1/files`)[0]?.body).toEqual({ kind: 'attachment', name: 'palette.pdf', contentType: 'application/pdf', size: 240 * 1024 });
  });
});
