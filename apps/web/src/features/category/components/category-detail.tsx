import type { TCategory, TCategoryInfo, TRights } from '@quire/contract';
import { Link } from 'react-router';
import { Button } from '../../../components/button';
import { MenuButton, type MenuItem } from '../../../components/menu-button';
import { plural } from '../../../lib/format';

const RIGHT_NAMES: Array<keyof TRights> = ['view', 'upload', 'edit', 'delete', 'share', 'manage'];

export type CategoryAction = 'create' | 'rename' | 'move' | 'up' | 'down' | 'duplicate' | 'delete';

/** What the chosen category holds and, for File Control writers, what can be done with it. */
export function CategoryDetail({
  info,
  siblings,
  canWrite,
  settingsPath,
  onAction,
  onOpen,
}: {
  info: TCategoryInfo;
  /** Its siblings in order (for moving up and down). */
  siblings: TCategory[];
  canWrite: boolean;
  /** The settings page, for File Control admins; null for the others. */
  settingsPath: string | null;
  onAction: (action: CategoryAction) => void;
  onOpen: (id: number) => void;
}) {
  const index = siblings.findIndex((s) => s.id === info.id);
  const rights = RIGHT_NAMES.filter((r) => info.rights[r]);
  const more: MenuItem[] = [
    { label: 'Rename', name: `Rename ${info.name}`, onSelect: () => onAction('rename') },
    { label: 'Move to…', name: `Move ${info.name} to another place`, onSelect: () => onAction('move') },
    ...(index > 0
      ? [{ label: 'Move up', name: `Move ${info.name} up`, onSelect: () => onAction('up') }]
      : []),
    ...(index >= 0 && index < siblings.length - 1
      ? [{ label: 'Move down', name: `Move ${info.name} down`, onSelect: () => onAction('down') }]
      : []),
    { label: 'Duplicate', name: `Duplicate ${info.name}`, onSelect: () => onAction('duplicate') },
    { label: 'Delete', name: `Delete ${info.name}`, danger: true, onSelect: () => onAction('delete') },
  ];

  return (
    <section className="card catalog__detail" aria-labelledby="category-detail-title">
      {info.ancestors.length > 0 ? (
        <nav aria-label="Path" className="breadcrumb">
          {info.ancestors.map((a) => (
            <span key={a.id}>
              <Button variant="link" small onClick={() => onOpen(a.id)}>
                {a.name}
              </Button>
              <span aria-hidden="true"> / </span>
            </span>
          ))}
        </nav>
      ) : null}
      <div className="card__header">
        <h2 id="category-detail-title">
          <Link to={`/files/category/${info.id}`} className="catalog__name-link">
            {info.name}
          </Link>
        </h2>
        <div className="row-actions">
          <Link className="button button--primary button--small" to={`/files/category/${info.id}`}>
            Open
          </Link>
          {info.rights.upload ? (
            <Link className="button button--ghost button--small" to={`/files/upload/${info.id}`}>
              Upload
            </Link>
          ) : null}
          {settingsPath ? (
            <Link className="button button--ghost button--small" to={settingsPath}>
              {canWrite ? 'Settings' : 'Settings and rights'}
            </Link>
          ) : null}
          {canWrite ? <MenuButton label="More" name={`More actions for ${info.name}`} items={more} /> : null}
        </div>
      </div>
      {info.description ? <p>{info.description}</p> : null}
      <dl className="details">
        <div>
          <dt>Holds</dt>
          <dd>
            {plural(info.file_count, 'file', 'files')},{' '}
            {plural(info.subcategory_count, 'sub-category', 'sub-categories')}
          </dd>
        </div>
        {!canWrite ? (
          <div>
            <dt>You may</dt>
            <dd>{rights.join(', ')}</dd>
          </div>
        ) : null}
        <div>
          <dt>Fields</dt>
          <dd>
            {info.fields.length === 0 ? (
              <span className="muted">None</span>
            ) : (
              info.fields.map((f) => `${f.field.name}${f.required ? ' (required)' : ''}`).join(', ')
            )}
          </dd>
        </div>
        <div>
          <dt>Related tags</dt>
          <dd>
            {info.related_tags.length === 0 ? (
              <span className="muted">None</span>
            ) : (
              <ul className="tag-list">
                {info.related_tags.map((t) => (
                  <li key={t.id} className="tag" style={t.color ? { borderColor: t.color } : undefined}>
                    {t.name}
                    {t.linked_folder ? <span className="muted"> → {t.linked_folder.name}</span> : null}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        {info.category_groups.length > 0 ? (
          <div>
            <dt>Category groups</dt>
            <dd>{info.category_groups.map((g) => g.name).join(', ')}</dd>
          </div>
        ) : null}
      </dl>
      <div className="section-header catalog__children-header">
        <h3>Sub-categories</h3>
        {canWrite ? (
          <Button variant="ghost" small onClick={() => onAction('create')}>
            New sub-category
          </Button>
        ) : null}
      </div>
      {info.children.length === 0 ? (
        <p className="muted">No sub-categories.</p>
      ) : (
        <ul className="link-list">
          {info.children.map((child) => (
            <li key={child.id}>
              <Button variant="link" onClick={() => onOpen(child.id)}>
                {child.name}
              </Button>{' '}
              <span className="muted">{plural(child.file_count, 'file', 'files')}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
