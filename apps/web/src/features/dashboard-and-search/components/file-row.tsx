import type { TFileBrief } from '@quire/contract';
import { Link } from 'react-router';
import { formatBytes } from '../../../lib/format';
import { fileLink } from '../lib/file-link';

/** A file's name as a link to it, with its category and state under it. */
export function FileCell({ file, nameHtml }: { file: TFileBrief; nameHtml?: React.ReactNode }) {
  return (
    <div className="file-cell">
      <Link to={fileLink(file.id)} className="file-cell__name">
        {nameHtml ?? file.name}
      </Link>
      <span className="muted file-cell__meta">
        {file.category?.name ?? 'Not indexed yet'}
        {file.size !== null ? ` · ${formatBytes(file.size)}` : ''}
        {file.locked ? ' · locked' : ''}
        {file.checked_out ? ' · checked out' : ''}
      </span>
    </div>
  );
}
