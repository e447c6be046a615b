import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';

/** Shows where the screen navigated to, and with which state, so tests can assert the destination. */
function Landed() {
  const location = useLocation();
  return (
    <p data-testid="landed">
      {location.pathname}
      {location.search}
      {location.state ? ` ${JSON.stringify(location.state)}` : ''}
    </p>
  );
}

/** Renders one screen at `url` inside a memory router where every other path shows `Landed`. */
export function renderAt(path: string, url: string, element: ReactElement) {
  const router = createMemoryRouter(
    [
      { path, element },
      { path: '*', element: <Landed /> },
    ],
    { initialEntries: [url] },
  );
  return render(<RouterProvider router={router} />);
}
