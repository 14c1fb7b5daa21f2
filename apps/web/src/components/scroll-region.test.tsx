import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScrollRegion } from './scroll-region';

function widths(scroll: number, client: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(scroll);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(client);
}

describe('ScrollRegion', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is a named region in the tab order while its table is wider than it', () => {
    widths(1200, 800);
    render(
      <ScrollRegion label="Users">
        <table />
      </ScrollRegion>,
    );
    const region = screen.getByRole('region', { name: 'Users' });
    expect(region).toHaveAttribute('tabindex', '0');
  });

  it('is a plain box, out of the tab order, when the table fits', () => {
    widths(800, 800);
    const { container } = render(
      <ScrollRegion label="Users">
        <table />
      </ScrollRegion>,
    );
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(container.querySelector('.table-wrap')).not.toHaveAttribute('tabindex');
  });
});
