import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { handTitleToReact } from './prerendered';

const titles = () => [...document.head.querySelectorAll('title')];

afterEach(() => {
  for (const t of titles()) t.remove();
});

test("a hydrated page keeps a title throughout, and a later page's title replaces it", async () => {
  const staticTitle = document.createElement('title');
  staticTitle.textContent = 'Sign in · Quire';
  document.head.append(staticTitle);
  const container = document.createElement('div');
  document.body.append(container);

  handTitleToReact();
  // Hydration has not committed yet: the page still has its title.
  expect(document.title).toBe('Sign in · Quire');

  const root = await act(async () => hydrateRoot(container, <title>Sign in · Quire</title>));
  expect(titles()).toHaveLength(1);
  expect(titles()[0]).not.toBe(staticTitle);
  expect(document.title).toBe('Sign in · Quire');

  // The next page renders its own title: it is the page's title, with no static one left over.
  await act(async () => root.render(<title>Documents · Quire</title>));
  expect(titles().map((t) => t.textContent)).toEqual(['Documents · Quire']);
  expect(document.title).toBe('Documents · Quire');
  act(() => root.unmount());
  container.remove();
});
