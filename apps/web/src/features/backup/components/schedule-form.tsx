import { type TBackupSchedule, type TScheduleBackupBody, ZScheduleBackupBody } from '@quire/contract';
import { useState } from 'react';
import { FormField, SelectField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { fieldErrorsFrom, focusFirstError, stateFieldBinder } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/format';
import { useScheduleBackup } from '../api/schedule-backup';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const FIELDS = ['cron', 'time', 'day_of_week', 'keep_last'] as const;
type Fields = (typeof FIELDS)[number];
const FREQUENCIES = [
  { value: 'daily', label: 'Every day' },
  { value: 'weekly', label: 'Every week' },
  { value: 'custom', label: 'Cron expression' },
];

/** When scheduled backups run (daily, weekly or a cron expression) and how many are kept. */
export function ScheduleForm({ schedule, readOnly }: { schedule: TBackupSchedule; readOnly: boolean }) {
  const notify = useNotify();
  const save = useScheduleBackup();
  const [enabled, setEnabled] = useState(schedule.enabled);
  const [frequency, setFrequency] = useState(schedule.frequency);
  const [time, setTime] = useState(schedule.time ?? '02:00');
  const [day, setDay] = useState(schedule.day_of_week ?? 0);
  const [cron, setCron] = useState(schedule.cron);
  const [keep, setKeep] = useState(String(schedule.keep_last));
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const bind = stateFieldBinder(errors);

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const showErrors = (found: Partial<Record<Fields, string>>) => {
      setErrors(found);
      queueMicrotask(() => focusFirstError(formElement, found, FIELDS));
    };
    const body: TScheduleBackupBody = {
      enabled,
      frequency,
      keep_last: Number(keep),
      ...(frequency === 'custom' ? { cron } : { time }),
      ...(frequency === 'weekly' ? { day_of_week: day } : {}),
    };
    // The contract's checks first: a cron expression is told what is wrong, in a sentence.
    const checked = ZScheduleBackupBody.safeParse(body);
    if (!checked.success) return showErrors(fieldErrorsFrom(checked.error.issues, FIELDS));
    setErrors({});
    save.mutate(checked.data, {
      onSuccess: (saved) =>
        notify.success(
          'Backup schedule saved',
          saved.enabled ? `Next backup ${formatDateTime(saved.next_run_at)}.` : 'Scheduled backups are off.',
        ),
      onError: (error) => {
        const fields = error instanceof ApiError ? fieldErrorsFrom(error.errors, FIELDS) : {};
        showErrors(fields);
        if (Object.keys(fields).length === 0) notify.notifyFailure('Failed to save backup schedule!', error);
      },
    });
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-busy={save.isPending}>
      <fieldset disabled={readOnly || save.isPending} className="form">
        <label className="checkbox">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Make
          backups on a schedule
        </label>
        <div className="toolbar">
          <SelectField
            label="How often"
            options={FREQUENCIES}
            value={frequency}
            onChange={(e) => setFrequency(e.target.value as TBackupSchedule['frequency'])}
          />
          {frequency === 'weekly' ? (
            <SelectField
              label="Day"
              error={errors.day_of_week}
              options={DAYS.map((d, i) => ({ value: i, label: d }))}
              value={day}
              onChange={(e) => setDay(Number(e.target.value))}
            />
          ) : null}
          {frequency === 'custom' ? (
            <FormField
              label="Cron expression"
              hint="Five fields: minute hour day month weekday (0 2 * * 1 is Mondays at 02:00)."
              className="field--grow"
              placeholder="0 2 * * *"
              {...bind('cron', cron, setCron)}
            />
          ) : (
            <FormField label="At" type="time" {...bind('time', time, setTime)} />
          )}
          <FormField
            label="Scheduled backups to keep"
            type="number"
            min={1}
            max={365}
            {...bind('keep_last', keep, setKeep)}
          />
        </div>
        <p className="muted">
          {schedule.enabled && schedule.next_run_at
            ? `Next scheduled backup: ${formatDateTime(schedule.next_run_at)}.`
            : 'No scheduled backups.'}
        </p>
        {readOnly ? null : (
          <div>
            <button type="submit" className="button button--primary">
              {save.isPending ? 'Saving…' : 'Save schedule'}
            </button>
          </div>
        )}
      </fieldset>
    </form>
  );
}
