import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CreateLessonBody, Lesson } from '@contracts/courses.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { LessonDialog } from './lesson-dialog.tsx';

/** The lesson dialog's assignment kind (issue 35 point 2): instructions in Markdown with a preview, and whether files are accepted. */

const renderDialog = (lesson?: Lesson) => {
  const onSave = vi.fn<(body: CreateLessonBody) => void>();
  const view = renderWithProviders(<LessonDialog open onOpenChange={() => undefined} lesson={lesson} saving={false} onSave={onSave} />);
  return { ...view, onSave };
};

const at = '2026-11-20T10:00:00.000Z';
const assignmentLesson: Lesson = {
  id: 'l9', courseId: 'c1', title: 'Paint a wash', kind: 'assignment', body: null, videoUrl: null, quiz: null, position: 2, files: [],
  assignment: { instructions: '## Your task\n\nPaint a **flat** wash.', html: '<h2>Your task</h2><p>Paint a <strong>flat</strong> wash.</p>', acceptsFiles: true },
  createdAt: at, updatedAt: at,
};

describe('the lesson dialog: assignments', () => {
  it('asks for instructions before it saves, previews them, and sends them as Markdown with the files choice', async () => {
    const { user, onSave } = renderDialog();
    await user.type(screen.getByLabelText(/Lesson title/), 'Paint a wash');
    await user.click(screen.getByRole('radio', { name: 'Assignment' }));
    await user.click(screen.getByRole('button', { name: 'Add lesson' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByText('Write the instructions.')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Instructions'));
    await user.paste('## Your task\n\nPaint a **flat** wash.');
    const preview = screen.getByRole('region', { name: 'Instructions preview' });
    expect(within(preview).getByRole('heading', { name: 'Your task' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Accept files/ })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: /Accept files/ }));
    await user.click(screen.getByRole('button', { name: 'Add lesson' }));
    expect(onSave.mock.calls[0]?.[0]).toEqual({
      title: 'Paint a wash',
      kind: 'assignment',
      assignment: { instructions: '## Your task\n\nPaint a **flat** wash.', acceptsFiles: true },
      release: { kind: 'immediate' },
    });
  });

  it('shows a saved assignment as its creator wrote it', () => {
    renderDialog(assignmentLesson);
    expect(screen.getByRole('radio', { name: 'Assignment' })).toBeChecked();
    expect(screen.getByLabelText('Instructions')).toHaveValue('## Your task\n\nPaint a **flat** wash.');
    expect(screen.getByRole('checkbox', { name: /Accept files/ })).toBeChecked();
  });
});
