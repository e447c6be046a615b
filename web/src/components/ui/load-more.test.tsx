import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LoadMore, type PagedList } from './load-more.tsx';

const pagesOf = (over: Partial<PagedList> = {}): PagedList => ({ hasNextPage: true, isFetchingNextPage: false, fetchNextPage: vi.fn(() => Promise.resolve()), ...over });

describe('LoadMore', () => {
  it('is not there when the list has no next page', () => {
    render(<LoadMore pages={pagesOf({ hasNextPage: false })} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('asks for the next page when pressed, by keyboard too, with its own label', async () => {
    const pages = pagesOf();
    render(<LoadMore pages={pages} label="More members" />);
    const button = screen.getByRole('button', { name: 'More members' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard(' ');
    expect(pages.fetchNextPage).toHaveBeenCalledTimes(2);
  });

  it("says 'Loading…' while the next page loads, disabled (a press does nothing) and keeping the focus", async () => {
    const pages = pagesOf();
    const { rerender } = render(<LoadMore pages={pages} />);
    screen.getByRole('button', { name: 'Load more' }).focus();
    rerender(<LoadMore pages={{ ...pages, isFetchingNextPage: true }} />);
    const busy = screen.getByRole('button', { name: 'Loading…' });
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy).toHaveFocus();
    await userEvent.click(busy);
    await userEvent.keyboard('{Enter}');
    expect(pages.fetchNextPage).not.toHaveBeenCalled();
    rerender(<LoadMore pages={pages} />);
    expect(screen.getByRole('button', { name: 'Load more' })).not.toHaveAttribute('aria-disabled');
  });

  it('calls onLoadMore in place of the plain fetch when given', async () => {
    const pages = pagesOf();
    const onLoadMore = vi.fn();
    render(<LoadMore pages={pages} onLoadMore={onLoadMore} />);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(onLoadMore).toHaveBeenCalledOnce();
    expect(pages.fetchNextPage).not.toHaveBeenCalled();
  });
});
