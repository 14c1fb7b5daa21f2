import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderLogin } from './prerender-login';

/** The page as the browser gets it from dist/login.html, before any script has run. */
function paintStatic(html: string): HTMLElement {
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

afterEach(() => document.getElementById('root')?.remove());

describe('the sign-in page rendered at build time', () => {
  it('is the real form: its fields by their labels, its button, posted rather than put in the address', async () => {
    const root = paintStatic(await renderLogin());
    const form = root.querySelector('form');
    expect(form?.getAttribute('method')).toBe('post');
    expect(screen.getByLabelText('Username or e-mail')).toHaveAttribute('name', 'username');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    const role = screen.getByLabelText('Role');
    expect(
      within(role)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['User', 'Admin']);
    expect(role).toHaveValue('user');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('has the page title, and no loading indicator in place of the form', async () => {
    const html = await renderLogin();
    expect(html).toMatch(/<title>[^<]*Sign in[^<]*<\/title>/);
    paintStatic(html);
    expect(document.querySelector('.page-loader')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });
});
