import { type TBackupSchedule, type TScheduleBackupBody, ZScheduleBackupBody } from '@quire/contract';
import { useId, useState } from 'react';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { fieldErrorsFrom, focusFirstError } from '../../../lib/field-errors';
import { formatDateTime } from '../../../lib/format';
import { useScheduleBackup } from '../api/schedule-backup';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const FIELDS = ['cron', 'time', 'day_of_week', 'keep_last'] as const;
type Fields = (typeof FIELDS)[number];

/** When scheduled backups run (daily, weekly or a cron expression) and how many are kept. */
export function ScheduleForm({ schedule, readOnly }: { schedule: TBackupSchedule; readOnly: boolean }) {
  const id = useId();
  const notify = useNotify();
  const save = useScheduleBackup();
  const [enabled, setEnabled] = useState(schedule.enabled);
  const [frequency, setFrequency] = useState(schedule.frequency);
  const [time, setTime] = useState(schedule.time ?? '02:00');
  const [day, setDay] = useState(schedule.day_of_week ?? 0);
  const [cron, setCron] = useState(schedule.cron);
  const [keep, setKeep] = useState(String(schedule.keep_last));
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});

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
  const err = (field: Fields) =>
    errors[field] ? (
      <p className="field__error" id={`${id}-${field}-error`}>
        {errors[field]}
      </p>
    ) : null;
  const described = (field: Fields) => (errors[field] ? `${id}-${field}-error` : undefined);

  return (
    <form className="form" onSubmit={submit} noValidate aria-busy={save.isPending}>
      <fieldset disabled={readOnly || save.isPending} className="form">
        <label className="checkbox">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Make
          backups on a schedule
        </label>
        <div className="toolbar">
          <div className="field">
            <label htmlFor={`${id}-frequency`}>How often</label>
            <select
              id={`${id}-frequency`}
              value={frequency}
              onChange={(e) => setFrequency(e.target.value as TBackupSchedule['frequency'])}
            >
              <option value="daily">Every day</option>
              <option value="weekly">Every week</option>
              <option value="custom">Cron expression</option>
            </select>
          </div>
          {frequency === 'weekly' ? (
            <div className="field">
              <label htmlFor={`${id}-day`}>Day</label>
              <select id={`${id}-day`} value={day} onChange={(e) => setDay(Number(e.target.value))}>
                {DAYS.map((d, i) => (
                  <option key={d} value={i}>
                    {d}
                  </option>
                ))}
              </select>
              {err('day_of_week')}
            </div>
          ) : null}
          {frequency === 'custom' ? (
            <div className="field field--grow">
              <label htmlFor={`${id}-cron`}>Cron expression</label>
              <input
                id={`${id}-cron`}
                name="cron"
                value={cron}
                placeholder="0 2 * * *"
                onChange={(e) => setCron(e.target.value)}
                aria-invalid={errors.cron ? true : undefined}
                aria-describedby={[described('cron'), `${id}-cron-hint`].filter(Boolean).join(' ')}
              />
              {err('cron')}
              <div className="field__hint" id={`${id}-cron-hint`}>
                Five fields: minute hour day month weekday (0 2 * * 1 is Mondays at 02:00).
              </div>
            </div>
          ) : (
            <div className="field">
              <label htmlFor={`${id}-time`}>At</label>
              <input
                id={`${id}-time`}
                name="time"
                type="time"
                value={time}
                onChange={(e) => setTime(e.target.value)}
                aria-invalid={errors.time ? true : undefined}
                aria-describedby={described('time')}
              />
              {err('time')}
            </div>
          )}
          <div className="field">
            <label htmlFor={`${id}-keep`}>Scheduled backups to keep</label>
            <input
              id={`${id}-keep`}
              name="keep_last"
              type="number"
              min={1}
              max={365}
              value={keep}
              onChange={(e) => setKeep(e.target.value)}
              aria-invalid={errors.keep_last ? true : undefined}
              aria-describedby={described('keep_last')}
            />
            {err('keep_last')}
          </div>
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
