import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  readSidebarCookie,
  Sidebar,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from './sidebar.tsx';

let mobile = false;
const listeners = new Set<() => void>();

function setViewport(isMobile: boolean): void {
  mobile = isMobile;
  act(() => listeners.forEach((notify) => notify()));
}

beforeEach(() => {
  mobile = false;
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return mobile && query.includes('max-width');
    },
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }));
  document.cookie = 'sidebar_state=; max-age=0; path=/';
});

afterEach(() => {
  vi.unstubAllGlobals();
  listeners.clear();
});

function State() {
  const { state, openMobile } = useSidebar();
  return (
    <p data-testid="state">
      {state} {openMobile ? 'drawer-open' : 'drawer-closed'}
    </p>
  );
}

function renderSidebar() {
  return render(
    <SidebarProvider>
      <Sidebar label="Test navigation">
        <SidebarMenu>
          <SidebarMenuItem>
            <SidebarMenuButton tooltip="Dashboard">Dashboard</SidebarMenuButton>
          </SidebarMenuItem>
        </SidebarMenu>
      </Sidebar>
      <SidebarTrigger />
      <State />
    </SidebarProvider>,
  );
}

const state = () => screen.getByTestId('state').textContent;

describe('Sidebar', () => {
  it('starts expanded and collapses to icons with Ctrl+B, then expands again', () => {
    renderSidebar();
    expect(state()).toBe('expanded drawer-closed');
    expect(screen.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');

    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(state()).toBe('collapsed drawer-closed');
    expect(screen.getByTestId('sidebar')).toHaveAttribute('data-collapsible', 'icon');

    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(state()).toBe('expanded drawer-closed');
  });

  it('toggles with Cmd+B too, and ignores a plain B', () => {
    renderSidebar();
    fireEvent.keyDown(window, { key: 'b' });
    expect(state()).toBe('expanded drawer-closed');
    fireEvent.keyDown(window, { key: 'b', metaKey: true });
    expect(state()).toBe('collapsed drawer-closed');
  });

  it('keeps the state in the sidebar_state cookie for 7 days', () => {
    const written: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      written.push(value);
      descriptor.set!.call(document, value);
    });
    renderSidebar();

    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });

    expect(written).toEqual(['sidebar_state=false; path=/; max-age=604800; samesite=lax']);
    expect(readSidebarCookie()).toBe(false);
  });

  it('starts collapsed when the cookie says so', () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderSidebar();
    expect(state()).toBe('collapsed drawer-closed');
  });

  it('reads the cookie among others and ignores nonsense', () => {
    expect(readSidebarCookie('a=1; sidebar_state=true; b=2')).toBe(true);
    expect(readSidebarCookie('sidebar_state=maybe')).toBeUndefined();
    expect(readSidebarCookie('')).toBeUndefined();
  });

  it('the trigger button toggles and says whether the sidebar is expanded', async () => {
    renderSidebar();
    const trigger = screen.getByRole('button', { name: 'Toggle sidebar' });
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(trigger);
    expect(state()).toBe('collapsed drawer-closed');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
  });

  it('below 768px is a drawer: Ctrl+B opens it as a dialog and leaves the desktop state alone', () => {
    renderSidebar();
    setViewport(true);
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });

    expect(state()).toBe('expanded drawer-open');
    expect(screen.getByRole('dialog', { name: 'Test navigation' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dashboard' })).toBeInTheDocument();
  });
});
