// The sign-in page as HTML, rendered at build time (build/prerender.ts): dist/login.html
// paints the form before any JavaScript has arrived; main.tsx then renders the same page over
// it. Nothing here runs in the browser.
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { App } from './app/app';
import { createNotificationStore } from './components/notifications/notification-store';
import { LoginPage } from './features/auth/routes/login';

export function renderLogin(): string {
  return renderToString(
    <App notifications={createNotificationStore()}>
      <MemoryRouter initialEntries={['/login']}>
        <LoginPage />
      </MemoryRouter>
    </App>,
  );
}
