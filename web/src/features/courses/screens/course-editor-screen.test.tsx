import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Course, CourseEnrollment } from '@contracts/courses.ts';
import { toast } from '@/components/ui/toaster.tsx';
import type { fakeApi} from '@/test/render.tsx';
import { callsTo, errorResponse, jsonResponse } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';
import { enrolledLearner, paintingCourse, textLesson, videoLesson } from '../test/fixtures.ts';
import { COURSE, renderCourseEditor } from '../test/render-editor.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => vi.unstubAllGlobals());


/** The editor of course-1 against a fake server holding `state`; the routes it needs besides GETs come in `extra`. */
function renderEditor(state: { course: Course; learners: CourseEnrollment[] }, extra: Parameters<typeof fakeApi>[0] = {}) {
  return renderCourseEditor(() => state.course, { [`GET ${COURSE}/enrollments`]: () => jsonResponse(200, { items: state.learners, nextCursor: null }), ...extra });
}

const lessonTitles = () => screen.getAllByTestId('lesson-row').map((row) => row.querySelector('.truncate')?.textContent);

describe('CourseEditorScreen: lessons', () => {
  it('shows the course with its lessons in order and its status', async () => {
    renderEditor({ course: paintingCourse, learners: [] });

    expect(await screen.findByRole('heading', { level: 1, name: 'Watercolour for Beginners' })).toBeInTheDocument();
    expect(lessonTitles()).toEqual(['Colour theory', 'First wash']);
    expect(screen.getByRole('button', { name: 'Move Colour theory up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move First wash down' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Publish' })).toBeEnabled();
  });

  it('adds a text lesson written with the toolbar, sent as HTML', async () => {
    const state: { course: Course; learners: CourseEnrollment[] } = { course: { ...paintingCourse, lessons: [] }, learners: [] };
    const { user, fetchMock } = renderEditor(state, {
      [`POST ${COURSE}/lessons`]: () => {
        state.course = { ...state.course, lessons: [textLesson] };
        return jsonResponse(201, textLesson);
      },
    });

    expect(await screen.findByText(/No lessons yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add lesson' }));
    const dialog = screen.getByRole('dialog', { name: 'Add lesson' });
    await user.type(within(dialog).getByRole('textbox', { name: /Lesson title/ }), 'Colour theory');
    await user.click(within(dialog).getByRole('button', { name: 'Heading' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Lesson text' }), 'Colours');
    expect(within(within(dialog).getByRole('region', { name: 'Text preview' })).getByRole('heading', { name: 'Colours' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add lesson' }));

    expect(await screen.findByRole('button', { name: 'Move Colour theory up' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons`)[0]?.body).toEqual({ title: 'Colour theory', kind: 'text', body: '<h2>Colours</h2>', release: { kind: 'immediate' } });
    expect(toast.success).toHaveBeenCalledWith('Lesson added');
  });

  it('previews a YouTube link through youtube-nocookie and a Vimeo link with dnt=1, and refuses other links', async () => {
    const { user, fetchMock } = renderEditor({ course: paintingCourse, learners: [] });
    await user.click(await screen.findByRole('button', { name: 'Add lesson' }));
    const dialog = screen.getByRole('dialog', { name: 'Add lesson' });
    await user.type(within(dialog).getByRole('textbox', { name: /Lesson title/ }), 'Clip');
    await user.click(within(dialog).getByRole('radio', { name: 'Video' }));
    const url = within(dialog).getByRole('textbox', { name: 'Video URL' });

    await user.type(url, 'https://youtu.be/dQw4w9WgXcQ');
    expect(within(dialog).getByTitle('Preview: Clip')).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    await user.clear(url);
    await user.type(url, 'https://vimeo.com/76979871');
    expect(within(dialog).getByTitle('Preview: Clip')).toHaveAttribute('src', 'https://player.vimeo.com/video/76979871?dnt=1');
    await user.clear(url);
    await user.type(url, 'https://example.com/page.html');
    expect(within(dialog).queryByTitle('Preview: Clip')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add lesson' }));
    expect(within(dialog).getByRole('textbox', { name: 'Video URL' })).toHaveAccessibleDescription(/Use a YouTube or Vimeo link/);
    expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons`)).toHaveLength(0);
  });

  it('moves a lesson down with its button and sends the new order', async () => {
    const state = { course: paintingCourse, learners: [] };
    const { user, fetchMock } = renderEditor(state, {
      [`PUT ${COURSE}/lessons/order`]: () => {
        state.course = { ...paintingCourse, lessons: [{ ...videoLesson, position: 0 }, { ...textLesson, position: 1 }] };
        return jsonResponse(200, state.course);
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Move Colour theory down' }));
    await vi.waitFor(() => expect(lessonTitles()).toEqual(['First wash', 'Colour theory']));
    expect(callsTo(fetchMock, 'PUT', `${COURSE}/lessons/order`)[0]?.body).toEqual({ lessonIds: ['lesson-2', 'lesson-1'] });
  });

  it('puts the lessons back when the server refuses the new order', async () => {
    const { user } = renderEditor({ course: paintingCourse, learners: [] }, {
      [`PUT ${COURSE}/lessons/order`]: () => errorResponse(400, 'VALIDATION_FAILED', 'Send every lesson id once.'),
    });

    await user.click(await screen.findByRole('button', { name: 'Move Colour theory down' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Send every lesson id once.' }));
    expect(lessonTitles()).toEqual(['Colour theory', 'First wash']);
  });

  it('deletes a lesson only after the confirmation', async () => {
    const state = { course: paintingCourse, learners: [] };
    const { user, fetchMock } = renderEditor(state, {
      [`DELETE ${COURSE}/lessons/lesson-1`]: () => {
        state.course = { ...paintingCourse, lessons: [{ ...videoLesson, position: 0 }] };
        return new Response(null, { status: 204 });
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Delete Colour theory' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Delete “Colour theory”?' })).getByRole('button', { name: 'Delete lesson' }));
    await vi.waitFor(() => expect(lessonTitles()).toEqual(['First wash']));
    expect(callsTo(fetchMock, 'DELETE', `${COURSE}/lessons/lesson-1`)).toHaveLength(1);
  });

  it('publishes the course and says so', async () => {
    const state = { course: paintingCourse, learners: [] };
    const { user, fetchMock } = renderEditor(state, {
      [`PATCH ${COURSE}`]: () => {
        state.course = { ...paintingCourse, status: 'published' };
        return jsonResponse(200, state.course);
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('button', { name: 'Unpublish' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PATCH', COURSE)[0]?.body).toEqual({ status: 'published' });
    expect(toast.success).toHaveBeenCalledWith('Course published', { description: 'Enrolled learners can now take it.' });
  });

  it('prices the course in pounds, sent as pence, and refuses what is not a price before sending anything', async () => {
    const state = { course: paintingCourse, learners: [] };
    const { user, fetchMock } = renderEditor(state, {
      [`PATCH ${COURSE}`]: (init) => {
        state.course = { ...paintingCourse, ...(JSON.parse(String(init?.body)) as object), updatedAt: '2026-11-25T10:00:00.000Z' };
        return jsonResponse(200, state.course);
      },
    });
    const pricing = within(await screen.findByRole('region', { name: 'Pricing' }));
    expect(pricing.getByText(/Not for sale yet/)).toBeInTheDocument();

    await user.type(pricing.getByLabelText('Price (£)'), '12.345');
    await user.click(pricing.getByRole('button', { name: 'Save pricing' }));
    expect(await pricing.findByText('Enter an amount in pounds, e.g. 29 or 29.99.')).toBeInTheDocument();
    await user.clear(pricing.getByLabelText('Price (£)'));
    await user.type(pricing.getByLabelText('Price (£)'), '0.10');
    await user.click(pricing.getByRole('button', { name: 'Save pricing' }));
    expect(await pricing.findByText('A price is 0 (not for sale) or at least £0.30.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PATCH', COURSE)).toEqual([]);

    await user.clear(pricing.getByLabelText('Price (£)'));
    await user.type(pricing.getByLabelText('Price (£)'), '29.99');
    await user.type(pricing.getByLabelText('Team price per seat (£)'), '20');
    await user.click(pricing.getByRole('button', { name: 'Save pricing' }));
    expect(await pricing.findByText(/£29.99 a learner; £20 a seat for teams/)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PATCH', COURSE)[0]?.body).toEqual({ priceAmount: 2999, seatPriceAmount: 2000 });
  });

  it("says 'Course not found' for a course that is not the creator's", async () => {
    renderCourseEditor(() => paintingCourse, { [`GET ${COURSE}`]: () => errorResponse(404, 'NOT_FOUND', 'Course not found.') });
    expect(await screen.findByRole('heading', { name: 'Course not found' })).toBeInTheDocument();
  });
});

describe('CourseEditorScreen: learners', () => {
  it('invites a learner by email, toasts the invitation and lists them with their progress', async () => {
    const state: { course: Course; learners: CourseEnrollment[] } = { course: paintingCourse, learners: [] };
    const { user, fetchMock } = renderEditor(state, {
      [`POST ${COURSE}/enrollments`]: () => {
        state.learners = [enrolledLearner];
        return jsonResponse(201, { learnerId: 'learner-1', email: 'ada@example.com', invited: true });
      },
    });

    expect(await screen.findByText('No learners enrolled yet.')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Learner email' }), 'Ada@Example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));

    expect(await screen.findByRole('progressbar', { name: 'ada@example.com: 50% complete' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', `${COURSE}/enrollments`)[0]?.body).toEqual({ email: 'ada@example.com' });
    expect(toast.success).toHaveBeenCalledWith('Invitation sent', { description: 'ada@example.com has a new learner account and an email with how to sign in.' });
    expect(screen.getByRole('textbox', { name: 'Learner email' })).toHaveValue('');
  });

  it("toasts the server's reason when the learner is already enrolled", async () => {
    const { user } = renderEditor({ course: paintingCourse, learners: [enrolledLearner] }, {
      [`POST ${COURSE}/enrollments`]: () => errorResponse(409, 'CONFLICT', 'That learner is already enrolled.'),
    });
    await user.type(await screen.findByRole('textbox', { name: 'Learner email' }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'That learner is already enrolled.' }));
  });

  it('removes a learner after the confirmation', async () => {
    const state: { course: Course; learners: CourseEnrollment[] } = { course: paintingCourse, learners: [enrolledLearner] };
    const { user, fetchMock } = renderEditor(state, {
      [`DELETE ${COURSE}/enrollments/learner-1`]: () => {
        state.learners = [];
        return new Response(null, { status: 204 });
      },
    });

    // The learner list is the second query to answer; give a busy machine time.
    await user.click(await screen.findByRole('button', { name: 'Remove ada@example.com' }, { timeout: 5000 }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove this learner?' });
    expect(dialog).toHaveTextContent('ada@example.com loses access to “Watercolour for Beginners”.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove learner' }));
    expect(await screen.findByText('No learners enrolled yet.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', `${COURSE}/enrollments/learner-1`)).toHaveLength(1);
  });
});

describe('CourseEditorScreen without a plan (issue 29)', () => {
  it('shows the course read-only, with the way to a plan instead of controls the server would refuse', async () => {
    renderEditor({ course: paintingCourse, learners: [] }, { 'GET /api/me/subscription': () => jsonResponse(200, subscription(null)) });

    expect(await screen.findByText('Choose a plan to edit this course')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '/dashboard/creator');
    // Everything is shown: the lessons and the details, their controls disabled.
    expect(lessonTitles().length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Save details' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: /Course title/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Publish' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete course' })).not.toBeInTheDocument();
  });
});
