import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { ConfigErrorScreen } from './app/config-error-screen.tsx';
import { configureAuth } from './lib/auth.ts';
import { loadConfig } from './lib/config.ts';
import './index.css';

const root = createRoot(document.getElementById('root')!);

// Amplify must be configured before the first route guard asks for the session, so config comes first.
loadConfig().then(
  (config) => {
    configureAuth(config);
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  },
  (error: unknown) => {
    console.error(error);
    root.render(<ConfigErrorScreen message={error instanceof Error ? error.message : String(error)} />);
  },
);
