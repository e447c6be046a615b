import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, planLoaded, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';
import { bundlesMessages as m } from '../bundles-messages.ts';
import { COURSES_RANGE, PRICE_INVALID } from '../components/bundle-dialog.tsx';
import { bundle, course, courses } from '../test/fixtures.ts';
import { BundlesScreen } from './bundles-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const open = () => renderWithProviders(<BundlesScreen />, { path: paths.creator.bundles });

const findTable = async () => within(await screen.findByRole('region', { name: 'Bundles' })).getByRole('table');
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

/** The creator's courses: two published ones (£40, £25), a third (£15) and a draft. */
const catalogue = { nextCursor: null, items: [...courses.items, course('course-4', 'Sketching Outdoors', { priceAmount: 1_500 })] };

/** The API of a creator with these bundles; `more` adds or overrides routes. */
const api = (items: ReturnType<typeof bundle>[], more: Parameters<typeof fakeApi>[0] = {}) =>
  fakeApi({
    'GET /api/bundles': () => jsonResponse(200, { items }),
    'GET /api/courses?limit=100': () => jsonResponse(200, catalogue),
    ...more,
  });

async function openCreateDialog() {
  await userEvent.click(screen.getByRole('button', { name: m.create }));
  return screen.findByRole('dialog', { name: m.form.createTitle });
}

describe('BundlesScreen: the list', () => {
  it("lists each bundle's title and courses, price against the separate prices, saving, status and public link", async () => {
    api([
      bundle('b-1', 'Painting kit'),
      bundle('b-2', 'Full price pair', { priceAmount: 6_500, savingAmount: 0, active: false }),
    ]);
    open();
    expect(await screen.findByRole('status')).toHaveTextContent(m.loading);
    const table = await findTable();

    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Bundle', 'Price', 'Saving', 'Status', 'Link', 'Actions']);
    expect(rowsOf(table).map(cellsOf)).toEqual([
      ['Painting kitWatercolour for Beginners, Portraits in Ink', '£50£65 separately', 'Saves £15 (23%)', 'On sale', 'Copy', 'EditDelete'],
      ['Full price pairWatercolour for Beginners, Portraits in Ink', '£65£65 separately', 'No saving', 'Off sale', 'Copy', 'EditDelete'],
    ]);
    expect(screen.getByRole('switch', { name: 'Painting kit on sale' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Full price pair on sale' })).not.toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Link of Painting kit' })).toHaveValue(`${window.location.origin}/b/b-1`);
    expect(screen.getByRole('heading', { level: 1, name: 'Bundles' })).toBeInTheDocument();
  });

  it('explains bundles when there are none yet, with Create bundle at hand', async () => {
    api([]);
    open();
    expect(await screen.findByRole('heading', { name: m.empty.title })).toBeInTheDocument();
    expect(screen.getByText(/Sell two or more of your published courses together/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.create })).toBeEnabled();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("offers 'Try again' when the list cannot be loaded, and shows it once it can", async () => {
    let fail = true;
    api([], { 'GET /api/bundles': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { items: [bundle('b-1', 'Painting kit')] })) });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(rowsOf(await findTable())).toHaveLength(1);
  });

  it('copies the public link, saying so', async () => {
    api([bundle('b-1', 'Painting kit')]);
    open();
    await findTable();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await userEvent.click(screen.getByRole('button', { name: 'Copy link of Painting kit' }));
    const link = `${window.location.origin}/b/b-1`;
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(link));
    expect(toast.success).toHaveBeenCalledWith(m.link.copied, { description: link });
  });

  it('selects the link to copy by hand when the clipboard refuses', async () => {
    api([bundle('b-1', 'Painting kit')]);
    open();
    await findTable();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    await userEvent.click(screen.getByRole('button', { name: 'Copy link of Painting kit' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: m.link.copyFailed }));
    expect(screen.getByRole('textbox', { name: 'Link of Painting kit' })).toHaveFocus();
  });
});

describe('BundlesScreen: creating and editing', () => {
  it('creates a bundle of two published courses (drafts not offered), the saving shown live, and the new row leads the list', async () => {
    const fetchMock = api([bundle('b-old', 'Older')], {
      'POST /api/bundles': () => jsonResponse(201, bundle('b-new', 'Painting kit', { description: 'Everything to start.' })),
    });
    open();
    await findTable();
    const dialog = await openCreateDialog();

    expect(within(dialog).getByRole('textbox', { name: /Title/ })).toHaveFocus();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Title/ }), 'Painting kit');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Description/ }), 'Everything to start.');
    const boxes = await within(dialog).findAllByRole('checkbox');
    expect(boxes.map((box) => box.closest('label')!.textContent)).toEqual(['Watercolour for Beginners£40', 'Portraits in Ink£25', 'Sketching Outdoors£15']);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Watercolour/ }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Portraits/ }));
    const saving = within(dialog).getByTestId('bundle-saving');
    expect(saving).toHaveTextContent('Separately: £65');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Bundle price/ }), '50');
    expect(saving).toHaveTextContent('Separately: £65 · Bundle: £50Buyers save £15 (23%)');
    expect(within(dialog).getByText('2 of 2 to 50 chosen')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.create }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'POST', '/api/bundles').map((call) => call.body)).toEqual([
      { title: 'Painting kit', description: 'Everything to start.', courseIds: ['course-1', 'course-2'], priceAmount: 5_000 },
    ]);
    expect(toast.success).toHaveBeenCalledWith(m.form.created, { description: 'Painting kit: 2 courses for £50.' });
    expect(rowsOf(await findTable()).map((row) => within(row).getAllByRole('cell')[0]!.firstChild!.textContent)).toEqual(['Painting kit', 'Older']);
  });

  it('narrows the course list by the search, keeping what was chosen, and says when nothing matches', async () => {
    api([]);
    open();
    await screen.findByRole('heading', { name: m.empty.title });
    const dialog = await openCreateDialog();
    await within(dialog).findAllByRole('checkbox');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Watercolour/ }));
    const search = within(dialog).getByRole('searchbox', { name: m.form.search });
    await userEvent.type(search, 'ink');
    expect(within(dialog).getAllByRole('checkbox').map((box) => box.closest('label')!.textContent)).toEqual(['Portraits in Ink£25']);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Portraits/ }));
    await userEvent.type(search, 'zzz');
    expect(within(dialog).getByText(m.form.noMatch)).toBeInTheDocument();
    await userEvent.clear(search);
    expect(within(dialog).getByRole('checkbox', { name: /Watercolour/ })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: /Portraits/ })).toBeChecked();
    expect(within(dialog).getByText('2 of 2 to 50 chosen')).toBeInTheDocument();
  });

  it('checks the form before sending: a title, 2 to 50 courses, a price of at least £1', async () => {
    const fetchMock = api([]);
    open();
    await screen.findByRole('heading', { name: m.empty.title });
    const dialog = await openCreateDialog();
    await within(dialog).findAllByRole('checkbox');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Watercolour/ }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Bundle price/ }), 'fifty');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.create }));

    expect(await within(dialog).findByText('Give the bundle a title.')).toBeInTheDocument();
    expect(within(dialog).getByText(COURSES_RANGE)).toBeInTheDocument();
    expect(within(dialog).getByText(PRICE_INVALID)).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Title/ })).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', '/api/bundles')).toHaveLength(0);
  });

  it("puts the server's refusal of a course on the course list, and another refusal above the buttons", async () => {
    const refusals = [
      errorResponse(400, 'VALIDATION_FAILED', 'A bundle holds your own published courses: course-2 is not.'),
      errorResponse(409, 'CONFLICT', 'You have 100 bundles: delete one to make another.'),
    ];
    api([], { 'POST /api/bundles': () => refusals.shift()! });
    open();
    await screen.findByRole('heading', { name: m.empty.title });
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Title/ }), 'Kit');
    await within(dialog).findAllByRole('checkbox');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Watercolour/ }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Portraits/ }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Bundle price/ }), '50');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.create }));
    expect(await within(dialog).findByText('A bundle holds your own published courses: course-2 is not.')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: m.form.create }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You have 100 bundles: delete one to make another.');
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('edits a bundle: the form holds it as it is, PATCH sends the change, the row shows the answer', async () => {
    const fetchMock = api([bundle('b-1', 'Painting kit')], {
      'PATCH /api/bundles/b-1': () =>
        jsonResponse(200, bundle('b-1', 'Painting kit', { courses: [...bundle('b-1', '').courses, { id: 'course-4', title: 'Sketching Outdoors', priceAmount: 1_500 }], priceAmount: 6_000, separateAmount: 8_000, savingAmount: 2_000 })),
    });
    open();
    await findTable();
    await userEvent.click(screen.getByRole('button', { name: 'Edit Painting kit' }));
    const dialog = await screen.findByRole('dialog', { name: m.form.editTitle });
    expect(within(dialog).getByRole('textbox', { name: /Title/ })).toHaveValue('Painting kit');
    expect(within(dialog).getByRole('textbox', { name: /Bundle price/ })).toHaveValue('50');
    expect(await within(dialog).findByRole('checkbox', { name: /Watercolour/ })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Sketching/ }));
    const price = within(dialog).getByRole('textbox', { name: /Bundle price/ });
    await userEvent.clear(price);
    await userEvent.type(price, '60');
    expect(within(dialog).getByTestId('bundle-saving')).toHaveTextContent('Separately: £80 · Bundle: £60Buyers save £20 (25%)');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.save }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'PATCH', '/api/bundles/b-1').map((call) => call.body)).toEqual([
      { title: 'Painting kit', description: '', courseIds: ['course-1', 'course-2', 'course-4'], priceAmount: 6_000 },
    ]);
    expect(toast.success).toHaveBeenCalledWith(m.form.saved, { description: 'Painting kit: 3 courses for £60.' });
    expect(cellsOf(rowsOf(await findTable())[0]!).slice(1, 3)).toEqual(['£60£80 separately', 'Saves £20 (25%)']);
  });
});

describe('BundlesScreen: switching and deleting', () => {
  it('takes a bundle off sale and back with PATCH {active}, saying so each time', async () => {
    const fetchMock = api([bundle('b-1', 'Painting kit')], {
      'PATCH /api/bundles/b-1': (init) => jsonResponse(200, bundle('b-1', 'Painting kit', JSON.parse(init!.body as string) as { active: boolean })),
    });
    open();
    await findTable();
    const toggle = screen.getByRole('switch', { name: 'Painting kit on sale' });
    await userEvent.click(toggle);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.toggle.off, { description: "Painting kit's page no longer sells it. Buyers keep their courses." }));
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.toggle.on, { description: 'Painting kit can be bought on its page.' }));
    expect(callsTo(fetchMock, 'PATCH', '/api/bundles/b-1').map((call) => call.body)).toEqual([{ active: false }, { active: true }]);
  });

  it('deletes a bundle only after the confirmation', async () => {
    const fetchMock = api([bundle('b-1', 'Painting kit'), bundle('b-2', 'Ink pair')], {
      'DELETE /api/bundles/b-1': () => new Response(null, { status: 204 }),
    });
    open();
    const table = await findTable();
    await userEvent.click(screen.getByRole('button', { name: 'Delete Painting kit' }));
    const question = screen.getByRole('alertdialog', { name: 'Delete Painting kit?' });
    expect(question).toHaveTextContent('Its page and checkout stop working. Buyers keep their courses.');
    await userEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'DELETE', '/api/bundles/b-1')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Painting kit' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: m.remove.action }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.remove.done, { description: 'Painting kit is no longer for sale.' }));
    await waitFor(() => expect(rowsOf(table)).toHaveLength(1));
    expect(callsTo(fetchMock, 'DELETE', '/api/bundles/b-1')).toHaveLength(1);
  });
});

describe('BundlesScreen without a plan (issue 29)', () => {
  it("lists the bundles read-only, with 'Choose a plan to create bundles'", async () => {
    const fetchMock = api([bundle('b-1', 'Painting kit')], { 'GET /api/me/subscription': () => jsonResponse(200, subscription('starter', { status: 'canceled' })) });
    const { queryClient } = open();
    await planLoaded(queryClient);
    expect(await screen.findByRole('link', { name: 'Choose a plan to create bundles' })).toBeInTheDocument();
    const table = await findTable();
    expect(within(table).getByRole('switch', { name: 'Painting kit on sale' })).toBeDisabled();
    expect(within(table).queryByRole('button', { name: 'Delete Painting kit' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET')).toEqual([]);
  });
});
