import { QueryClient, QueryClientContext } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { Suspense, useContext } from 'react';
import { describe, expect, it } from 'vitest';
import { createNotificationStore } from '../components/notifications/notification-store';
import { provideQueryClient } from '../lib/query-client-store';
import { lazyPage } from './lazy-page';

const appClient = new QueryClient();

/** Says which query client the page sees. */
function ClientProbe() {
  const client = useContext(QueryClientContext);
  return (
    <p>{client === undefined ? 'no client' : client === appClient ? 'the app client' : 'another client'}</p>
  );
}

function renderPage(options?: { queries?: boolean }) {
  const { element } = lazyPage(createNotificationStore(), async () => ClientProbe, options);
  render(<Suspense fallback={<p>loading</p>}>{element}</Suspense>);
}

describe('a lazily loaded page', () => {
  it("renders inside the app's query client", async () => {
    provideQueryClient(appClient);
    renderPage();
    expect(await screen.findByText('the app client')).toBeInTheDocument();
  });

  it('loads without any query client when it does without (the sign-in page)', async () => {
    provideQueryClient(appClient);
    renderPage({ queries: false });
    expect(await screen.findByText('no client')).toBeInTheDocument();
  });
});
