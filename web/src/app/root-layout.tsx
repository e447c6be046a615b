import { Outlet, useNavigation } from 'react-router-dom';

/**
 * The root of every page. While a navigation waits for its guard (the profile) or its screen's chunk, the old page
 * stays and a thin bar at the top says 'Loading...' (the first load shows the full-page LoadingScreen instead).
 */
export function RootLayout() {
  const loading = useNavigation().state === 'loading';
  return (
    <>
      {loading && (
        <div role="status" className="fixed inset-x-0 top-0 z-[100] h-0.5 overflow-hidden bg-muted" data-testid="navigation-progress">
          <div className="h-full w-1/3 animate-pulse bg-ring" />
          <span className="sr-only">Loading...</span>
        </div>
      )}
      <Outlet />
    </>
  );
}
