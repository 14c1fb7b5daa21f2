import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createAppRouter } from './app/router';
import { createNotificationStore } from './components/notifications/notification-store';
import { installErrorReporting } from './lib/error-reporting';
import { createQueryClient } from './lib/query-client';
import './styles.css';

installErrorReporting();
const notifications = createNotificationStore();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App
      router={createAppRouter(notifications)}
      queryClient={createQueryClient()}
      notifications={notifications}
    />
  </StrictMode>,
);
