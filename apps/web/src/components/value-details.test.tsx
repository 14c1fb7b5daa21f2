import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ValueDetails } from './value-details';

describe('a list of metadata values', () => {
  it('names each field and shows its value, or a dash when it has none', () => {
    render(
      <ValueDetails
        className="details"
        values={[
          { field_id: 1, name: 'Invoice number', display: 'INV-7' },
          { field_id: 2, name: 'Paid on', display: '' },
        ]}
      />,
    );
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['Invoice number', 'Paid on']);
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual(['INV-7', '—']);
  });
});
