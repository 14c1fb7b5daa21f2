import { useState } from 'react';
import { Button, DropZone, FileTrigger } from 'react-aria-components';
import { formatBytes } from '../lib/format';

export interface FileDropZoneProps {
  /** "Drop files here". */
  label: string;
  /** MIME types or extensions the input offers (`['image/png', '.pdf']`); all when absent. */
  accept?: string[];
  multiple?: boolean;
  /** Files larger than this are refused with a message. */
  maxBytes?: number;
  disabled?: boolean;
  /** The button's text; "Choose files" (or "Choose a file") by default. */
  chooseLabel?: string;
  onFiles: (files: File[]) => void;
}

function accepted(file: File, accept: string[] | undefined): boolean {
  if (!accept || accept.length === 0) return true;
  const name = file.name.toLowerCase();
  return accept.some((type) =>
    type.startsWith('.')
      ? name.endsWith(type.toLowerCase())
      : type.endsWith('/*')
        ? file.type.startsWith(type.slice(0, -1))
        : file.type === type,
  );
}

/**
 * A drop target with a "Choose files" button (React Aria): files dropped on it, or chosen with
 * the button (keyboard: Tab to it, Enter), go to `onFiles`; files of the wrong type or too
 * large are named in a message instead.
 */
export function FileDropZone({
  label,
  accept,
  multiple = true,
  maxBytes,
  disabled = false,
  chooseLabel,
  onFiles,
}: FileDropZoneProps) {
  const [refused, setRefused] = useState<string[]>([]);

  function take(files: File[]) {
    const problems: string[] = [];
    const ok = files.filter((file) => {
      if (!accepted(file, accept)) {
        problems.push(`${file.name}: this type of file is not accepted`);
        return false;
      }
      if (maxBytes !== undefined && file.size > maxBytes) {
        problems.push(`${file.name}: larger than ${formatBytes(maxBytes)}`);
        return false;
      }
      return true;
    });
    const chosen = multiple ? ok : ok.slice(0, 1);
    setRefused(problems);
    if (chosen.length > 0) onFiles(chosen);
  }

  return (
    <div className="drop-zone-wrap">
      <DropZone
        className="drop-zone"
        // Its name is the label alone (a label slot would add React Aria's "DropZone" before it).
        aria-label={label}
        isDisabled={disabled}
        getDropOperation={(types) =>
          disabled || !accept || [...accept].some((t) => t.startsWith('.') || types.has(t))
            ? 'copy'
            : 'cancel'
        }
        onDrop={async (event) => {
          const files = await Promise.all(
            event.items.filter((item) => item.kind === 'file').map((item) => item.getFile()),
          );
          take(files);
        }}
      >
        <span className="drop-zone__label">{label}</span>
        <FileTrigger
          acceptedFileTypes={accept}
          allowsMultiple={multiple}
          onSelect={(list) => take(list ? [...list] : [])}
        >
          <Button className="button button--ghost" isDisabled={disabled}>
            {chooseLabel ?? `Choose ${multiple ? 'files' : 'a file'}`}
          </Button>
        </FileTrigger>
      </DropZone>
      {refused.length > 0 ? (
        <ul className="field__error drop-zone__refused" role="alert">
          {refused.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
