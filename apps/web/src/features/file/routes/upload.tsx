import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { FileDropZone } from '../../../components/drop-zone';
import { PageHeader } from '../../../components/page-header';
import { UploadList } from '../../../components/upload-list';
import { useUploadCategories } from '../api/get-upload-categories';
import { useCategoryUploads } from '../lib/use-category-uploads';

/**
 * Upload into a category: drop or choose many files, each with its progress bar and Cancel.
 * When every upload has ended and one went through, on to the unindexed files of the category.
 */
export function UploadPage() {
  const folderId = Number(useParams().id);
  const navigate = useNavigate();
  const categories = useUploadCategories();
  const category = categories.data?.find((c) => c.id === folderId);
  const { items, add, cancel, dismiss } = useCategoryUploads(folderId);
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current || items.length === 0) return;
    if (items.some((i) => i.status === 'uploading')) return;
    if (!items.some((i) => i.status === 'done')) return;
    moved.current = true;
    navigate('/unindexed-files', { state: { categoryId: folderId } });
  }, [items, folderId, navigate]);

  const refused = categories.isSuccess && !category;
  return (
    <>
      <PageHeader title={category ? `Upload into ${category.name}` : 'Upload files'}>
        {category && category.path !== category.name ? `${category.path}. ` : ''}
        Files go into the category unindexed; you give their values next.
      </PageHeader>
      {refused ? (
        <p className="alert alert--warning" role="alert">
          You may not upload into this category. <Link to="/categories">Choose another category</Link>.
        </p>
      ) : (
        <>
          <FileDropZone
            label={category ? `Drop files here to upload them into ${category.name}` : 'Drop files here'}
            onFiles={add}
          />
          <UploadList items={items} onCancel={cancel} onDismiss={dismiss} />
        </>
      )}
    </>
  );
}
