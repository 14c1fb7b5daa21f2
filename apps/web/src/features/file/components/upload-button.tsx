import type { TCategoryOption } from '@quire/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FileDropZone } from '../../../components/drop-zone';
import { SinglePicker } from '../../../components/single-picker';
import { UploadList } from '../../../components/upload-list';
import { useUploadCategories } from '../api/get-upload-categories';
import { useCategoryUploads } from '../lib/use-category-uploads';

/** The categories the person may upload into, chosen by typing part of their path. */
function CategoryPicker({
  categories,
  loading,
  value,
  onChange,
}: {
  categories: TCategoryOption[];
  loading: boolean;
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  return (
    <SinglePicker
      label="Category"
      toggleLabel="Show all categories"
      options={categories.map((c) => ({ id: c.id, label: c.path }))}
      value={value}
      onChange={onChange}
      loading={loading}
      noMatch={(term) => `No category matches “${term}”.`}
      placeholder="Type part of its name"
      autoFocus
    />
  );
}

/** Choose a category (where the person may upload), then the files, each with its progress. */
function UploadDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const categories = useUploadCategories();
  const list = categories.data ?? [];
  const [folderId, setFolderId] = useState<number | null>(null);
  const folder = list.find((c) => c.id === folderId);
  const uploads = useCategoryUploads(folderId ?? 0);
  const done = uploads.items.filter((i) => i.status === 'done').length;
  const sentTo = uploads.items.length > 0;

  return (
    <Dialog
      title="Upload files"
      description="Files go into the category unindexed; you give their values next."
      onClose={onClose}
      busy={uploads.busy}
    >
      <div className="stack">
        {categories.isSuccess && list.length === 0 ? (
          <p className="muted">
            There is no category you may upload into. Ask a File Control administrator for access.
          </p>
        ) : (
          <>
            {sentTo && folder ? (
              <p>
                Uploading into <strong>{folder.path}</strong>.
              </p>
            ) : (
              <CategoryPicker
                categories={list}
                loading={categories.isPending}
                value={folderId}
                onChange={setFolderId}
              />
            )}
            {folder ? (
              <FileDropZone
                label={`Drop files here to upload them into ${folder.name}`}
                onFiles={uploads.add}
              />
            ) : (
              <p className="muted">Choose the category first.</p>
            )}
            <UploadList items={uploads.items} onCancel={uploads.cancel} onDismiss={uploads.dismiss} />
          </>
        )}
      </div>
      <div className="dialog__actions">
        <button
          type="button"
          className="button button--ghost dialog__cancel"
          onClick={onClose}
          disabled={uploads.busy}
        >
          Close
        </button>
        {done > 0 && !uploads.busy ? (
          <Button
            variant="primary"
            onClick={() => {
              onClose();
              navigate('/unindexed-files', { state: { categoryId: folderId } });
            }}
          >
            Index {done === 1 ? 'the uploaded file' : `the ${done} uploaded files`}
          </Button>
        ) : null}
      </div>
    </Dialog>
  );
}

/**
 * The header's Upload: a dialog to choose a category, then the files. Shown only to those who
 * may upload somewhere.
 */
export function UploadButton() {
  const [open, setOpen] = useState(false);
  const categories = useUploadCategories();
  if (!categories.data?.length) return null;
  return (
    <>
      <Button variant="primary" small aria-label="Upload files" onClick={() => setOpen(true)}>
        Upload
      </Button>
      {open ? <UploadDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}
