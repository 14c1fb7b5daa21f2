import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FileDropZone } from './drop-zone';

const file = (name: string, type: string, size = 10) => new File(['x'.repeat(size)], name, { type });

function input(): HTMLInputElement {
  const found = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!found) throw new Error('no file input');
  return found;
}

describe('FileDropZone', () => {
  it('hands over the files chosen with its button, which the keyboard reaches', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const onFiles = vi.fn();
    render(<FileDropZone label="Drop files here" onFiles={onFiles} />);
    expect(screen.getByText('Drop files here')).toBeInTheDocument();
    // The drop target's own button is named by the label alone (not "DropZone Drop files here").
    expect(screen.getByRole('button', { name: 'Drop files here' })).toBeInTheDocument();
    // Tab reaches the drop zone (which takes a paste), then its button.
    const button = screen.getByRole('button', { name: 'Choose files' });
    for (let i = 0; i < 3 && document.activeElement !== button; i++) await user.tab();
    expect(button).toHaveFocus();
    await user.upload(input(), [file('a.pdf', 'application/pdf'), file('b.txt', 'text/plain')]);
    expect(onFiles).toHaveBeenCalledWith([
      expect.objectContaining({ name: 'a.pdf' }),
      expect.objectContaining({ name: 'b.txt' }),
    ]);
  });

  it('refuses files of another type or too large, and says which', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const onFiles = vi.fn();
    render(
      <FileDropZone
        label="Drop images here"
        accept={['image/png', '.jpg']}
        maxBytes={100}
        onFiles={onFiles}
      />,
    );
    await user.upload(input(), [
      file('ok.png', 'image/png'),
      file('photo.JPG', 'image/jpeg'),
      file('notes.txt', 'text/plain'),
      file('huge.png', 'image/png', 500),
    ]);
    expect(onFiles).toHaveBeenCalledWith([
      expect.objectContaining({ name: 'ok.png' }),
      expect.objectContaining({ name: 'photo.JPG' }),
    ]);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('notes.txt: this type of file is not accepted');
    expect(alert).toHaveTextContent('huge.png: larger than 100 bytes');
  });

  it('takes one file only when not multiple', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const onFiles = vi.fn();
    render(<FileDropZone label="Drop a file" multiple={false} onFiles={onFiles} />);
    expect(screen.getByRole('button', { name: 'Choose a file' })).toBeInTheDocument();
    await user.upload(input(), [file('a.pdf', 'application/pdf')]);
    expect(onFiles).toHaveBeenCalledWith([expect.objectContaining({ name: 'a.pdf' })]);
  });
});
