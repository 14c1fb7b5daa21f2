import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { usePageDisclosure } from './use-page-disclosure';

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/files']}>{children}</MemoryRouter>
);

describe('usePageDisclosure', () => {
  it('opens and folds on this page, and is folded again on another page', () => {
    const { result } = renderHook(
      () => ({ menu: usePageDisclosure('main-navigation'), navigate: useNavigate() }),
      {
        wrapper,
      },
    );
    expect(result.current.menu.open).toBe(false);
    expect(result.current.menu.toggleProps).toMatchObject({
      type: 'button',
      'aria-expanded': false,
      'aria-controls': 'main-navigation',
    });
    act(() => result.current.menu.toggleProps.onClick());
    expect(result.current.menu.open).toBe(true);
    expect(result.current.menu.toggleProps['aria-expanded']).toBe(true);
    act(() => result.current.menu.toggle());
    expect(result.current.menu.open).toBe(false);
    act(() => result.current.menu.show());
    act(() => result.current.navigate('/profile'));
    expect(result.current.menu.open).toBe(false);
    act(() => result.current.menu.show());
    expect(result.current.menu.open).toBe(true);
    act(() => result.current.menu.close());
    expect(result.current.menu.open).toBe(false);
  });
});
