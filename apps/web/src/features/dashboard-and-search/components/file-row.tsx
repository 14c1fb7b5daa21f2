import type { TFileBrief } from '@quire/contract';
import { Link } from 'react-router';
import { Thumbnail } from '../../../components/thumbnail';
import { formatBytes } from '../../../lib/format';
import { fileLink } from '../lib/file-link';

/** A file's thumbnail and name as a link to it, with its category and state under it. */
export function FileCell({
  file,
  nameHtml,
  to,
}: {
  file: TFileBrief;
  nameHtml?: React.ReactNode;
  /** Where the name leads (default: the file page). */
  to?: string;
}) {
  return (
    <div className="file-cell">
      <Thumbnail fileId={file.id} mimeType={file.mime_type} version={file.updated_at} />
      <div className="file-cell__text">
        <Link to={to ?? fileLink(file.id)} className="file-cell__name">
          {nameHtml ?? file.name}
        </Link>
        <span className="muted file-cell__meta">
          {file.category?.name ?? 'Not indexed yet'}
          {file.size !== null ? ` · ${formatBytes(file.size)}` : ''}
          {file.locked ? ' · locked' : ''}
          {file.checked_out ? ' · checked out' : ''}
        </span>
      </div>
    </div>
  );
}
