import type { TRetentionRule } from '@quire/contract';
import { useState } from 'react';
import { ConfirmMutationDialog } from '../../../components/confirm-mutation-dialog';
import { EmptyText, QueryTable, RowAction, Timestamp } from '../../../components/data-table';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteRetentionRule, useRetentionRules } from '../api/retention-rules';
import { RetentionHeader } from '../components/retention-tabs';
import { RuleForm } from '../components/rule-form';

/** The retention rules by category; File Control writers set and remove them. */
export function RetentionRulesPage() {
  const { canWrite } = useAreaAccess('fileControl');
  const rules = useRetentionRules();
  const remove = useDeleteRetentionRule();
  const [removing, setRemoving] = useState<TRetentionRule | null>(null);
  useFailureToast(rules.error, rules.errorUpdatedAt, 'Failed to load retention rules');
  return (
    <>
      <RetentionHeader title="Retention">
        How long each category keeps its files, and what happens then. Files under a legal hold are never
        deleted, moved or versioned over.
      </RetentionHeader>
      <QueryTable
        query={rules}
        what="retention rules"
        rows={rules.data?.items}
        empty={
          <EmptyText title="No retention rules yet">
            Files are kept until someone deletes them. Set a rule below to schedule their review or deletion.
          </EmptyText>
        }
        caption="Retention rules"
        columns={['Category', 'Rule', 'Changed']}
        cells={(rule) => (
          <>
            <td>{rule.category.name}</td>
            <td>{rule.summary}</td>
            <td>
              <Timestamp iso={rule.updated_at} show="date" />
            </td>
          </>
        )}
        rowActions={
          canWrite &&
          ((rule) => (
            <RowAction
              label={`Remove the rule of ${rule.category.name}`}
              danger
              onClick={() => setRemoving(rule)}
            >
              Remove
            </RowAction>
          ))
        }
      />
      {canWrite ? <RuleForm /> : null}
      {removing ? (
        <ConfirmMutationDialog
          title="Remove this rule?"
          confirmLabel="Remove rule"
          tone="danger"
          mutation={remove}
          value={removing.category.id}
          success={[
            'Retention rule removed',
            `${removing.category.name} now follows its parent's rule, if any.`,
          ]}
          failure="Failed to remove retention rule!"
          onClose={() => setRemoving(null)}
        >
          {removing.category.name} will no longer be kept by "{removing.summary}". Dispositions already listed
          stay.
        </ConfirmMutationDialog>
      ) : null}
    </>
  );
}
