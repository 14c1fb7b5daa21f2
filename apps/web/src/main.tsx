import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app';
import { preloadRoute } from './app/lazy-page';
import { AppRoutes, createRoutes } from './app/router';
import { createNotificationStore } from './components/notifications/notification-store';
import { installErrorReporting } from './lib/error-reporting';
import { captureTyped, handTitleToReact } from './lib/prerendered';
import { applyStoredTheme } from './lib/theme';
import './styles.css';

installErrorReporting();
// index.html set the theme before this script ran; from here on it follows the system's changes.
applyStoredTheme();
const notifications = createNotificationStore();
const routes = createRoutes(notifications);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The page asked for arrives before the first render: it paints once, without a loader first.
// A page served as prerendered HTML (/login, build/prerender.ts) is hydrated: React adopts the
// painted markup rather than painting it again. It may have been typed into meanwhile: its
// fields start from what was typed.
void preloadRoute(routes, window.location.pathname).then(() => {
  const app = (
    <StrictMode>
      <App notifications={notifications}>
        {/* No transitions: a page whose chunk is still on its way shows the loading indicator,
          rather than the previous page staying on screen (and clickable) meanwhile. */}
        <BrowserRouter useTransitions={false}>
          <AppRoutes routes={routes} />
        </BrowserRouter>
      </App>
    </StrictMode>
  );
  if (root.hasChildNodes() && window.location.pathname === '/login') {
    captureTyped(root);
    // The page's <title> is React's to manage (the sign-in page renders its own).
    handTitleToReact();
    hydrateRoot(root, app);
  } else {
    createRoot(root).render(app);
  }
});
