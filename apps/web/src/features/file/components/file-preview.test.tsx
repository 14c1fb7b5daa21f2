import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilePreview } from './file-preview';

describe('FilePreview', () => {
  afterEach(() => {
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it("names an image by the file's name, not by its version key", async () => {
    // jsdom has no object URLs: stand-ins.
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:photo'), revokeObjectURL: vi.fn() });
    render(
      <FilePreview
        kind="image"
        name="3-3"
        fileName="site-photo.png"
        load={() => Promise.resolve(new Blob(['png'], { type: 'image/png' }))}
      />,
    );
    expect(await screen.findByRole('img')).toHaveAccessibleName('site-photo.png');
    expect(screen.queryByRole('img', { name: '3-3' })).not.toBeInTheDocument();
  });

  it('draws the recognised words of a search over the image, scaled to it, and says how many', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:scan'), revokeObjectURL: vi.fn() });
    const { container } = render(
      <FilePreview
        kind="image"
        name="4-4"
        fileName="invoice.png"
        marks={['platypus']}
        recognised={{
          page: 1,
          boxes: [
            { x: 0.1, y: 0.2, width: 0.3, height: 0.05 },
            { x: 0.5, y: 0.6, width: 0.25, height: 0.04 },
          ],
        }}
        load={() => Promise.resolve(new Blob(['png'], { type: 'image/png' }))}
      />,
    );
    expect(await screen.findByRole('status')).toHaveTextContent('2 matches on page 1');
    const marks = container.querySelectorAll<HTMLElement>('.file-preview__sheet .file-preview__mark');
    expect(marks).toHaveLength(2);
    expect(marks[0]?.style.left).toBe('10%');
    expect(marks[0]?.style.top).toBe('20%');
    expect(marks[0]?.style.width).toBe('30%');
    expect(marks[1]?.style.height).toBe('4%');
    expect(marks[0]).toHaveAttribute('aria-hidden', 'true');
  });

  it('says no match is marked when the page has none, and draws nothing without words asked for', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:scan'), revokeObjectURL: vi.fn() });
    const { container, rerender } = render(
      <FilePreview
        kind="image"
        name="5-5"
        fileName="receipt.png"
        marks={['wombat']}
        recognised={{ page: 1, boxes: [] }}
        load={() => Promise.resolve(new Blob(['png'], { type: 'image/png' }))}
      />,
    );
    expect(await screen.findByRole('status')).toHaveTextContent('No match marked on page 1');
    rerender(
      <FilePreview
        kind="image"
        name="5-5"
        fileName="receipt.png"
        load={() => Promise.resolve(new Blob(['png'], { type: 'image/png' }))}
      />,
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(container.querySelector('.file-preview__mark')).toBeNull();
  });
});
