import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerCourseDetail } from '@contracts/courses.ts';
import type { CourseFile } from '@contracts/files.ts';
import { callsTo, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { openDownload } from '../components/open-download.ts';
import { playerRoutes } from '../test/fixtures.ts';
import { CoursePlayerScreen } from './course-player-screen.tsx';

// The player's uploaded files (issue 10 point 2): a video played from a short-lived signed URL (asked again once when
// it expires), and attachments downloaded through a fresh signed URL.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
vi.mock('../components/open-download.ts', () => ({ openDownload: vi.fn() }));
afterEach(() => vi.unstubAllGlobals());

const at = '2026-11-20T10:00:00.000Z';
const BASE = '/api/learner/courses/course-paint';
const video: CourseFile = { id: 'f-video', lessonId: 'l1', kind: 'video', name: 'wash.mp4', contentType: 'video/mp4', size: 9 * 1024 * 1024, status: 'ready', createdAt: at };
const pdf: CourseFile = { ...video, id: 'f-pdf', kind: 'attachment', name: 'palette.pdf', contentType: 'application/pdf', size: 240 * 1024 };

const courseWith = (lesson: Partial<LearnerCourseDetail['lessons'][number]>): LearnerCourseDetail => ({
  courseId: 'course-paint',
  title: 'Watercolour for Beginners',
  description: 'Paint with water.',
  creatorName: 'Maya Green',
  progress: 0,
  lastActivity: at,
  completedAt: null,
  branding: null,
  lessons: [{ id: 'l1', title: 'Wet on wet', kind: 'video', body: null, videoUrl: null, position: 0, files: [], completed: false, quiz: null, ...lesson }],
});

const renderPlayer = () =>
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/learner/courses/:courseId" element={<CoursePlayerScreen />} />
    </Routes>,
    { path: '/dashboard/learner/courses/course-paint' },
  );

describe('CoursePlayerScreen: uploaded files', () => {
  it('plays an uploaded video from its signed URL, and after it expires asks once for a fresh one and goes on at the same time', async () => {
    let version = 0;
    const fetchMock = fakeApi({
      ...playerRoutes(BASE, courseWith({ files: [video] })),
      [`GET ${BASE}/files/f-video/url`]: () => jsonResponse(200, { url: `https://s3.test/wash.mp4?v=${++version}`, expiresAt: at }),
    });
    renderPlayer();

    const player = await screen.findByTestId('uploaded-video');
    expect(player).toHaveAttribute('src', 'https://s3.test/wash.mp4?v=1');
    expect(player).toHaveAttribute('controls');

    (player as HTMLVideoElement).currentTime = 312;
    fireEvent.error(player);
    await vi.waitFor(() => expect(player).toHaveAttribute('src', 'https://s3.test/wash.mp4?v=2'));
    Object.defineProperty(player, 'currentTime', { value: 0, writable: true });
    fireEvent.loadedMetadata(player);
    expect((player as HTMLVideoElement).currentTime).toBe(312);

    fireEvent.error(player);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(callsTo(fetchMock, 'GET', `${BASE}/files/f-video/url`)).toHaveLength(2);
  });

  it("says 'This video is not available yet.' for a video lesson with neither a link nor an uploaded video", async () => {
    fakeApi(playerRoutes(BASE, courseWith({})));
    renderPlayer();

    expect(await screen.findByText('This video is not available yet.')).toBeInTheDocument();
  });

  it('lists the attachments with their size, and Download goes to a fresh signed URL', async () => {
    const fetchMock = fakeApi({
      ...playerRoutes(BASE, courseWith({ kind: 'text', body: '<p>Read me.</p>', files: [pdf] })),
      [`GET ${BASE}/files/f-pdf/url`]: () => jsonResponse(200, { url: 'https://s3.test/palette.pdf?sig=1', expiresAt: at }),
    });
    const { user } = renderPlayer();

    const attachments = await screen.findByRole('region', { name: 'Attachments' });
    expect(attachments).toHaveTextContent('palette.pdf');
    expect(attachments).toHaveTextContent('240 KB');
    await user.click(screen.getByRole('button', { name: 'Download palette.pdf' }));

    await vi.waitFor(() => expect(openDownload).toHaveBeenCalledWith('https://s3.test/palette.pdf?sig=1'));
    expect(callsTo(fetchMock, 'GET', `${BASE}/files/f-pdf/url`)).toHaveLength(1);
  });
});
