import { Slot } from '@radix-ui/react-slot';
import { PanelLeft } from 'lucide-react';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ComponentProps,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { cn } from '@/lib/utils.ts';
import { Button } from './button.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from './sheet.tsx';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from './tooltip.tsx';

// SPEC.md section 9: mobile breakpoint 768px, cookie lifetime 7 days, widths 16rem / 18rem mobile / 3rem icons.
export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_ICON = '3rem';
export const SIDEBAR_KEYBOARD_SHORTCUT = 'b';
const MOBILE_QUERY = '(max-width: 767.98px)';

/** The remembered expanded/collapsed state, or undefined when there is none yet. */
export function readSidebarCookie(cookie = typeof document === 'undefined' ? '' : document.cookie): boolean | undefined {
  const value = cookie
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === SIDEBAR_COOKIE_NAME)?.[1];
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

function writeSidebarCookie(open: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE_NAME}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; samesite=lax`;
}

function subscribeToMobile(onChange: () => void): () => void {
  const query = window.matchMedia(MOBILE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** True below 768px: the sidebar is then an off-canvas drawer. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribeToMobile,
    () => window.matchMedia(MOBILE_QUERY).matches,
    () => false,
  );
}

interface SidebarContextValue {
  state: 'expanded' | 'collapsed';
  open: boolean;
  setOpen: (open: boolean) => void;
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  isMobile: boolean;
  toggleSidebar: () => void;
}

const SidebarContext = createContext<SidebarContextValue | null>(null);

export function useSidebar(): SidebarContextValue {
  const context = useContext(SidebarContext);
  if (!context) throw new Error('useSidebar must be used inside <SidebarProvider>');
  return context;
}

/**
 * Holds the sidebar's state: expanded or icons-only on wide screens (kept in the `sidebar_state` cookie for 7
 * days), open or closed as a drawer on narrow ones. Ctrl+B / Cmd+B toggles whichever applies.
 */
export function SidebarProvider({
  defaultOpen = true,
  className,
  style,
  children,
  ...props
}: ComponentProps<'div'> & { defaultOpen?: boolean }) {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() => readSidebarCookie() ?? defaultOpen);
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    writeSidebarCookie(value);
  }, []);

  const toggleSidebar = useCallback(() => {
    if (isMobile) setOpenMobile((value) => !value);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent): void {
      if (event.key.toLowerCase() === SIDEBAR_KEYBOARD_SHORTCUT && (event.metaKey || event.ctrlKey) && !event.altKey) {
        // Ctrl+B is also the browser's bookmarks bar in some browsers: the app's meaning wins inside the app.
        event.preventDefault();
        toggleSidebar();
      }
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggleSidebar]);

  const value = useMemo<SidebarContextValue>(
    () => ({ state: open ? 'expanded' : 'collapsed', open, setOpen, openMobile, setOpenMobile, isMobile, toggleSidebar }),
    [open, setOpen, openMobile, isMobile, toggleSidebar],
  );

  return (
    <SidebarContext.Provider value={value}>
      <TooltipProvider delayDuration={0}>
        <div
          style={
            {
              '--sidebar-width': SIDEBAR_WIDTH,
              '--sidebar-width-mobile': SIDEBAR_WIDTH_MOBILE,
              '--sidebar-width-icon': SIDEBAR_WIDTH_ICON,
              ...style,
            } as CSSProperties
          }
          className={cn('flex min-h-dvh w-full', className)}
          {...props}
        >
          {children}
        </div>
      </TooltipProvider>
    </SidebarContext.Provider>
  );
}

/** The sidebar itself: a fixed column on wide screens (16rem, or 3rem of icons), a drawer (18rem) on narrow ones. */
export function Sidebar({ className, children, label = 'Sidebar' }: { className?: string; children: ReactNode; label?: string }) {
  const { isMobile, state, openMobile, setOpenMobile } = useSidebar();

  if (isMobile) {
    return (
      <Sheet open={openMobile} onOpenChange={setOpenMobile}>
        <SheetContent
          data-sidebar="sidebar"
          data-mobile="true"
          // The drawer is portalled out of the provider's element, so its width comes with it.
          style={{ '--sidebar-width-mobile': SIDEBAR_WIDTH_MOBILE } as CSSProperties}
          className="w-(--sidebar-width-mobile) max-w-[85vw] bg-subtle p-0"
        >
          <SheetTitle className="sr-only">{label}</SheetTitle>
          <SheetDescription className="sr-only">The app's navigation</SheetDescription>
          <div className="flex h-full w-full flex-col">{children}</div>
        </SheetContent>
      </Sheet>
    );
  }

  return (
    <div
      className="group peer hidden text-foreground md:block"
      data-state={state}
      data-collapsible={state === 'collapsed' ? 'icon' : ''}
      data-testid="sidebar"
    >
      {/* Takes the sidebar's room in the page flow; the sidebar itself is fixed so it stays put on scroll. */}
      <div className="relative w-(--sidebar-width) bg-transparent transition-[width] duration-200 ease-linear group-data-[collapsible=icon]:w-(--sidebar-width-icon)" />
      <aside
        aria-label={label}
        className={cn(
          'fixed inset-y-0 left-0 z-10 hidden h-dvh w-(--sidebar-width) flex-col border-r bg-subtle transition-[width] duration-200 ease-linear md:flex',
          'group-data-[collapsible=icon]:w-(--sidebar-width-icon)',
          className,
        )}
      >
        {children}
      </aside>
    </div>
  );
}

export function SidebarTrigger({ className, onClick, ...props }: ComponentProps<typeof Button>) {
  const { toggleSidebar, isMobile, open, openMobile } = useSidebar();
  return (
    <Button
      variant="ghost"
      size="icon"
      className={cn('size-9', className)}
      aria-label="Toggle sidebar"
      aria-expanded={isMobile ? openMobile : open}
      title="Toggle sidebar (Ctrl+B)"
      data-sidebar="trigger"
      onClick={(event) => {
        onClick?.(event);
        toggleSidebar();
      }}
      {...props}
    >
      <PanelLeft aria-hidden="true" />
    </Button>
  );
}

/** The page next to the sidebar. */
export function SidebarInset({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('relative flex min-h-dvh min-w-0 flex-1 flex-col bg-background', className)} {...props} />;
}

export function SidebarHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-2 p-2', className)} {...props} />;
}

export function SidebarFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('mt-auto flex flex-col gap-2 p-2', className)} {...props} />;
}

export function SidebarContent({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={cn('flex min-h-0 flex-1 flex-col gap-2 overflow-auto group-data-[collapsible=icon]:overflow-hidden', className)}
      {...props}
    />
  );
}

export function SidebarGroup({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('relative flex w-full min-w-0 flex-col p-2', className)} {...props} />;
}

export function SidebarGroupLabel({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={cn(
        'flex h-8 shrink-0 items-center rounded-md px-2 text-xs font-medium text-muted-foreground',
        'transition-[margin,opacity] duration-200 group-data-[collapsible=icon]:-mt-8 group-data-[collapsible=icon]:opacity-0',
        className,
      )}
      {...props}
    />
  );
}

export function SidebarMenu({ className, ...props }: ComponentProps<'ul'>) {
  return <ul className={cn('flex w-full min-w-0 flex-col gap-1', className)} {...props} />;
}

export function SidebarMenuItem({ className, ...props }: ComponentProps<'li'>) {
  return <li className={cn('relative', className)} {...props} />;
}

/**
 * A menu entry (usually `asChild` around a link). In icon mode only the icon shows; the label stays in the DOM
 * for assistive technology and appears as a tooltip on hover and focus.
 */
export function SidebarMenuButton({
  asChild = false,
  isActive = false,
  tooltip,
  className,
  ...props
}: ComponentProps<'button'> & { asChild?: boolean; isActive?: boolean; tooltip?: string }) {
  const { state, isMobile } = useSidebar();
  const Comp = asChild ? Slot : 'button';
  const button = (
    <Comp
      data-active={isActive || undefined}
      className={cn(
        'flex h-9 w-full items-center gap-2 overflow-hidden rounded-md px-2 text-left text-sm outline-none transition-[width,height,padding,background-color]',
        'hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring',
        'data-[active=true]:bg-primary data-[active=true]:font-medium data-[active=true]:text-primary-foreground',
        'group-data-[collapsible=icon]:size-8 group-data-[collapsible=icon]:p-2',
        '[&>span:last-child]:truncate [&>svg]:size-4 [&>svg]:shrink-0',
        className,
      )}
      {...props}
    />
  );
  if (!tooltip || state !== 'collapsed' || isMobile) return button;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{button}</TooltipTrigger>
      <TooltipContent side="right" align="center">
        {tooltip}
      </TooltipContent>
    </Tooltip>
  );
}

/** Text that only shows while the sidebar is expanded (it stays readable by screen readers in icon mode). */
export function SidebarLabel({ className, ...props }: ComponentProps<'span'>) {
  return <span className={cn('group-data-[collapsible=icon]:sr-only', className)} {...props} />;
}
