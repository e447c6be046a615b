import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CreateLessonBody, Lesson } from '@contracts/courses.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { LessonDialog } from './lesson-dialog.tsx';

/** The lesson dialog's release (issue 33): when a lesson opens to learners, set by keyboard alone. */

const renderDialog = (lesson?: Lesson) => {
  const onSave = vi.fn<(body: CreateLessonBody) => void>();
  const view = renderWithProviders(<LessonDialog open onOpenChange={() => undefined} lesson={lesson} saving={false} onSave={onSave} />);
  return { ...view, onSave };
};

describe('the lesson dialog: release', () => {
  it('opens a new lesson immediately unless told otherwise', async () => {
    const { user, onSave } = renderDialog();
    await user.type(screen.getByLabelText(/Lesson title/), 'Week one');
    await user.type(screen.getByLabelText('Lesson text'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Add lesson' }));
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({ title: 'Week one', kind: 'text', release: { kind: 'immediate' } });
  });

  it('takes a number of days after enrolment, refusing one out of 1..365, with the keyboard only', async () => {
    const { user, onSave } = renderDialog();
    await user.type(screen.getByLabelText(/Lesson title/), 'Week two');
    await user.type(screen.getByLabelText('Lesson text'), 'Hello');
    await user.selectOptions(screen.getByLabelText('Opens'), 'Days after enrolment');
    const days = screen.getByLabelText('Days after enrolment');
    await user.clear(days);
    await user.type(days, '400');
    await user.click(screen.getByRole('button', { name: 'Add lesson' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByText('Give a whole number of days from 1 to 365.')).toBeInTheDocument();
    expect(days).toHaveAttribute('aria-invalid', 'true');
    await user.clear(days);
    await user.type(days, '7{Enter}');
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({ release: { kind: 'afterEnrollment', days: 7 } });
  });

  it('takes a date and time in the creator\'s zone, and shows a saved one back', async () => {
    const { user, onSave } = renderDialog();
    await user.type(screen.getByLabelText(/Lesson title/), 'Live week');
    await user.type(screen.getByLabelText('Lesson text'), 'Hello');
    await user.selectOptions(screen.getByLabelText('Opens'), 'On a date');
    await user.click(screen.getByRole('button', { name: 'Add lesson' }));
    expect(screen.getByText('Choose the date and time it opens.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Opens on'), '2027-01-05T09:30');
    await user.click(screen.getByRole('button', { name: 'Add lesson' }));
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({ release: { kind: 'date', at: new Date('2027-01-05T09:30').toISOString() } });
  });

  it('shows an edited lesson\'s release as saved', () => {
    renderDialog({
      id: 'l1', courseId: 'c1', title: 'Week two', kind: 'text', body: '<p>Hi</p>', videoUrl: null, quiz: null, position: 1, files: [],
      release: { kind: 'afterEnrollment', days: 14 }, createdAt: '2026-11-20T10:00:00.000Z', updatedAt: '2026-11-20T10:00:00.000Z',
    });
    expect(screen.getByLabelText('Opens')).toHaveValue('afterEnrollment');
    expect(screen.getByLabelText('Days after enrolment')).toHaveValue(14);
  });
});
