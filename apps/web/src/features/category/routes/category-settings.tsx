import { Link, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-error';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useFolderInfo } from '../api/get-folder-info';
import { FieldsSection } from '../components/fields-section';
import { GeneralSection } from '../components/general-section';
import { RightsSection } from '../components/rights-section';
import { TagsSection } from '../components/tags-section';
import { catalogAccess } from '../lib/catalog-access';

/** A category's settings: its name and what it takes from above, its fields, its rights, its tags. */
export function CategorySettingsPage() {
  const id = Number(useParams().id);
  const { canWrite } = catalogAccess();
  const info = useFolderInfo(Number.isInteger(id) && id > 0 ? id : null);
  useFailureToast(info.error, info.errorUpdatedAt, 'Failed to load the category');
  const back = <Link to={`/admin/category?id=${id}`}>Back to the tree</Link>;
  if (info.isPending)
    return (
      <div className="card empty-state" role="status">
        <span className="spinner" aria-hidden="true" />
        <p className="muted">Loading the category…</p>
      </div>
    );
  if (!info.data)
    return (
      <>
        <PageHeader title="Category not found" />
        <p className="muted">
          {info.error instanceof ApiError && info.error.status === 404
            ? 'It does not exist, or it was deleted.'
            : 'It could not be loaded.'}
        </p>
        {back}
      </>
    );
  const data = info.data;
  const path = [...data.ancestors.map((a) => a.name), data.name].join(' / ');
  return (
    <>
      <PageHeader title={`${data.name}: settings`}>{path}</PageHeader>
      {back}
      {!canWrite ? <p className="badge badge--neutral">Read only</p> : null}
      <div className="stack" key={data.id}>
        <GeneralSection info={data} canWrite={canWrite} />
        <FieldsSection info={data} canWrite={canWrite} />
        <RightsSection info={data} canWrite={canWrite} />
        <TagsSection info={data} canWrite={canWrite} />
      </div>
    </>
  );
}
