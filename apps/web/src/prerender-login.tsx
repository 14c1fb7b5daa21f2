// The sign-in page as HTML, rendered at build time (build/prerender.ts): dist/login.html
// paints the form before any JavaScript has arrived; main.tsx then hydrates it. The tree is
// the browser's own (the app's routes at /login, its page loaded first), so that hydration
// finds the same markup and keeps the painted page rather than painting it again. Nothing
// here runs in the browser.
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { App } from './app/app';
import { preloadRoute } from './app/lazy-page';
import { AppRoutes, createRoutes } from './app/router';
import { createNotificationStore } from './components/notifications/notification-store';

export async function renderLogin(): Promise<string> {
  const notifications = createNotificationStore();
  const routes = createRoutes(notifications);
  await preloadRoute(routes, '/login');
  return renderToString(
    <App notifications={notifications}>
      <MemoryRouter initialEntries={['/login']}>
        <AppRoutes routes={routes} />
      </MemoryRouter>
    </App>,
  );
}
