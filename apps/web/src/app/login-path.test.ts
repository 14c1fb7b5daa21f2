import { describe, expect, it } from 'vitest';
import { loginPathFor } from './login-path';

describe('loginPathFor', () => {
  it('keeps the page asked for as ?redirect=', () => {
    expect(loginPathFor({ pathname: '/admin/category', search: '?page=2' })).toBe(
      '/login?redirect=%2Fadmin%2Fcategory%3Fpage%3D2',
    );
  });

  it('keeps a preview-file page as ?preview=', () => {
    expect(loginPathFor({ pathname: '/preview-file/42', search: '' })).toBe(
      '/login?preview=%2Fpreview-file%2F42',
    );
  });

  it('adds nothing for the home and login pages', () => {
    expect(loginPathFor({ pathname: '/' })).toBe('/login');
    expect(loginPathFor({ pathname: '/login' })).toBe('/login');
  });
});
