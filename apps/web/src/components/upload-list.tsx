import { ProgressBar } from 'react-aria-components';
import { formatBytes } from '../lib/format';
import type { UploadItem } from '../lib/use-uploads';
import { Button } from './button';

const STATUS_TEXT = { uploading: 'Uploading', done: 'Uploaded', failed: 'Failed', cancelled: 'Cancelled' };

/** One line per upload: its name, a progress bar, and Cancel while it runs. */
export function UploadList({
  items,
  onCancel,
  onDismiss,
}: {
  items: UploadItem[];
  onCancel: (id: number) => void;
  onDismiss: (id: number) => void;
}) {
  if (items.length === 0) return null;
  return (
    <ul className="upload-list" aria-label="Uploads">
      {items.map((item) => (
        <li key={item.id} className={`upload-list__item is-${item.status}`}>
          <ProgressBar
            className="upload-list__progress"
            value={item.progress === null ? undefined : item.progress * 100}
            isIndeterminate={item.status === 'uploading' && item.progress === null}
            aria-label={item.file.name}
          >
            {({ percentage, valueText }) => (
              <>
                <div className="upload-list__row">
                  <span className="upload-list__name">{item.file.name}</span>
                  <span className="muted upload-list__meta">
                    {formatBytes(item.file.size)} · {STATUS_TEXT[item.status]}
                    {item.status === 'uploading' && valueText ? ` ${valueText}` : ''}
                  </span>
                </div>
                <div className="upload-list__track">
                  <div
                    className="upload-list__fill"
                    style={{ width: `${item.status === 'done' ? 100 : (percentage ?? 0)}%` }}
                  />
                </div>
              </>
            )}
          </ProgressBar>
          {item.error ? <p className="field__error">{item.error}</p> : null}
          {item.status === 'uploading' ? (
            <Button
              variant="ghost"
              small
              aria-label={`Cancel uploading ${item.file.name}`}
              onClick={() => onCancel(item.id)}
            >
              Cancel
            </Button>
          ) : (
            <Button
              variant="link"
              small
              aria-label={`Dismiss ${item.file.name}`}
              onClick={() => onDismiss(item.id)}
            >
              Dismiss
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
