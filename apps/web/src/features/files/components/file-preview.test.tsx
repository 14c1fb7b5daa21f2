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
});
