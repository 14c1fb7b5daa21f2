import { conditionWords, type TDryRun, type TWorkflow } from '@quire/contract';
import { useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { Dialog } from '../../../components/dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useDryRun } from '../api/dry-run';
import { useDryRunFiles } from '../api/dry-run-files';

type Result = TDryRun['steps'][number]['pre'];

function Conditions({ title, set }: { title: string; set: Result }) {
  if (set.conditions.length === 0) return null;
  return (
    <div>
      <p className="dry-run__title">
        {title}:{' '}
        <span className={`badge ${set.holds ? 'badge--success' : 'badge--error'}`}>
          {set.holds ? 'hold' : 'fail'}
        </span>
      </p>
      <ul className="dry-run__conditions">
        {set.conditions.map((c, i) => (
          <li key={c.id} className={c.holds ? 'is-ok' : 'is-failed'}>
            <span aria-hidden="true">{c.holds ? '✓' : '✗'}</span>
            <span className="sr-only">{c.holds ? 'Holds:' : 'Fails:'}</span> {i > 0 ? `${c.join} ` : ''}
            {conditionWords(
              `${c.field_name}${c.on_workflow_field ? ' (workflow)' : ''}`,
              c.operator,
              c.expected,
            )}{' '}
            <span className="muted">— it is {c.actual ?? 'empty'}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Pick a file: which step would it enter, and which conditions of each step hold or fail for it. */
export function DryRunDialog({ workflow, onClose }: { workflow: TWorkflow; onClose: () => void }) {
  const notify = useNotify();
  const [input, setInput] = useState('');
  const [fileId, setFileId] = useState<number | null>(null);
  const search = useDebouncedValue(input.trim(), 250);
  const files = useDryRunFiles(workflow.id, fileId ? '' : search);
  const run = useDryRun();
  const result = run.data;

  const onTry = () => {
    if (!fileId) return;
    run.mutate(
      { workflow_id: workflow.id, file_id: fileId },
      { onError: (error) => notify.notifyFailure('Failed to run the dry run!', error) },
    );
  };

  return (
    <Dialog
      title="Dry run"
      description="Nothing is started: see where a file would go."
      onClose={onClose}
      busy={run.isPending}
      size="large"
    >
      <div className="form">
        <ComboBox
          className="picker__combo"
          items={files.data ?? []}
          inputValue={input}
          onInputChange={(value) => {
            setInput(value);
            setFileId(null);
          }}
          selectedKey={fileId}
          onSelectionChange={(key) => {
            const id = key === null ? null : Number(key);
            setFileId(id);
            const file = files.data?.find((f) => f.id === id);
            if (file) setInput(file.name);
          }}
          menuTrigger="focus"
        >
          <Label className="picker__label">File</Label>
          <div className="picker__field">
            <Input className="picker__input" placeholder="Type a file's name" />
            <Button className="picker__toggle" aria-label="Show files">
              ▾
            </Button>
          </div>
          <Popover className="picker__popover">
            <ListBox
              className="picker__list"
              renderEmptyState={() => <p className="picker__empty">No files match.</p>}
            >
              {(file: { id: number; name: string; category: { name: string } | null }) => (
                <ListBoxItem id={file.id} textValue={file.name} className="picker__option">
                  {file.name}
                  {file.category ? <span className="picker__detail">{file.category.name}</span> : null}
                </ListBoxItem>
              )}
            </ListBox>
          </Popover>
        </ComboBox>
        <div className="form-actions">
          <PendingButton
            type="button"
            pending={run.isPending}
            pendingLabel="Trying…"
            disabled={!fileId}
            onClick={onTry}
          >
            Try it
          </PendingButton>
        </div>
        {result && result.file_id === fileId ? (
          <section className="dry-run" aria-live="polite" aria-label="Dry run result">
            <p className={`alert ${result.would_start ? 'alert--success' : 'alert--warning'}`}>
              {result.reason}
            </p>
            <ol className="dry-run__steps">
              {result.steps.map((s) => (
                <li key={s.id} className={s.id === result.entry_step?.id ? 'is-entry' : undefined}>
                  <strong>
                    {s.position}. {s.name}
                  </strong>
                  {s.id === result.entry_step?.id ? <span className="badge">Entry step</span> : null}
                  {s.pre.conditions.length + s.post.conditions.length === 0 ? (
                    <p className="muted">No conditions.</p>
                  ) : null}
                  <Conditions title="To enter" set={s.pre} />
                  <Conditions title="To approve" set={s.post} />
                </li>
              ))}
            </ol>
          </section>
        ) : null}
        <div className="form-actions">
          <button type="button" className="button button--ghost" onClick={onClose} disabled={run.isPending}>
            Close
          </button>
        </div>
      </div>
    </Dialog>
  );
}
