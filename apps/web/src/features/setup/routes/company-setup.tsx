import { zodResolver } from '@hookform/resolvers/zod';
import { type TCompanyDetails, ZCompanyDetailsBody } from '@quire/contract';
import { CardForm } from '../../../components/card-form';
import { QueryState } from '../../../components/data-table';
import { FormField } from '../../../components/form-field';
import { PageHeader } from '../../../components/page-header';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { pickValues, useValuesForm } from '../../../lib/use-form-submit';
import { useCompanyDetails } from '../api/get-company-details';
import { useUpdateCompanyDetails } from '../api/update-company-details';
import { ImageCard } from '../components/image-card';

const FIELDS = ['name', 'address', 'phone', 'email', 'website'] as const;
const resolver = zodResolver(ZCompanyDetailsBody);

/** Company setup: the company's details, its logo and the sign-in background. */
export function CompanySetupPage() {
  const { canWrite } = useAreaAccess('settings');
  const details = useCompanyDetails();
  useFailureToast(details.error, details.errorUpdatedAt, 'Failed to load the company details');
  return (
    <>
      <PageHeader title="Company setup">Who the company is, and how Quire looks for it.</PageHeader>
      {!canWrite ? <span className="badge badge--neutral">Read only</span> : null}
      <QueryState
        query={details}
        loadingText="Loading the company details…"
        failedText="The company details could not be loaded"
      >
        {details.data ? (
          <div className="profile-grid">
            <DetailsCard details={details.data} canWrite={canWrite} />
            <ImageCard what="logo" url={details.data.logo_url} canWrite={canWrite} />
            <ImageCard what="background" url={details.data.background_url} canWrite={canWrite} />
          </div>
        ) : null}
      </QueryState>
    </>
  );
}

function DetailsCard({ details, canWrite }: { details: TCompanyDetails; canWrite: boolean }) {
  const update = useUpdateCompanyDetails();
  const { bind, onSubmit } = useValuesForm({
    resolver,
    values: pickValues(details, FIELDS),
    save: update,
    fields: FIELDS,
    failure: 'Failed to save the company details!',
    told: () => ['Company details saved', 'The details were saved.'],
  });
  return (
    <CardForm
      title="Details"
      onSubmit={onSubmit}
      pending={update.isPending}
      canWrite={canWrite}
      submitLabel="Save details"
      fieldsetClassName="plain-fieldset form"
    >
      <FormField label="Company name" autoComplete="organization" {...bind('name')} />
      <FormField label="Address" autoComplete="street-address" {...bind('address')} />
      <FormField label="Phone" type="tel" autoComplete="tel" {...bind('phone')} />
      <FormField label="E-mail" type="email" autoComplete="email" {...bind('email')} />
      <FormField label="Website" type="url" autoComplete="url" {...bind('website')} />
    </CardForm>
  );
}
