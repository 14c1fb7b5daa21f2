import { parseDate } from '@internationalized/date';
import {
  DateRangePicker as AriaDateRangePicker,
  Button,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DateSegment,
  Dialog,
  FieldError,
  Group,
  Heading,
  Label,
  Popover,
  RangeCalendar,
  Text,
} from 'react-aria-components';

/** A range of whole days, as the API takes them: `YYYY-MM-DD`, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

export interface DateRangePickerProps {
  label: string;
  value: DayRange | null;
  onChange: (range: DayRange | null) => void;
  /** The earliest and latest days that can be chosen (`YYYY-MM-DD`). */
  min?: string;
  max?: string;
  hint?: string;
  error?: string | undefined;
}

/**
 * A from–to date picker (React Aria): type the days segment by segment (arrows change a
 * segment, Tab moves on), or open the calendar with its button and pick the two ends (arrows
 * move, Enter picks, Esc closes). Dates show in the browser's locale.
 */
export function DateRangePicker({ label, value, onChange, min, max, hint, error }: DateRangePickerProps) {
  return (
    <AriaDateRangePicker
      className="date-range field"
      value={value ? { start: parseDate(value.from), end: parseDate(value.to) } : null}
      onChange={(range) =>
        onChange(range ? { from: range.start.toString(), to: range.end.toString() } : null)
      }
      {...(min ? { minValue: parseDate(min) } : {})}
      {...(max ? { maxValue: parseDate(max) } : {})}
      isInvalid={Boolean(error)}
    >
      <Label>{label}</Label>
      <Group className="control date-range__group">
        <DateInput slot="start" className="date-range__input">
          {(segment) => <DateSegment segment={segment} className="date-range__segment" />}
        </DateInput>
        <span aria-hidden="true" className="date-range__dash">
          –
        </span>
        <DateInput slot="end" className="date-range__input">
          {(segment) => <DateSegment segment={segment} className="date-range__segment" />}
        </DateInput>
        <Button className="date-range__button" aria-label="Open the calendar">
          <span aria-hidden="true">▦</span>
        </Button>
      </Group>
      {hint ? (
        <Text slot="description" className="field__hint">
          {hint}
        </Text>
      ) : null}
      <FieldError className="field__error">{error}</FieldError>
      <Popover className="date-range__popover" offset={4}>
        <Dialog className="date-range__dialog" aria-label={label}>
          <RangeCalendar className="calendar">
            <header className="calendar__header">
              <Button slot="previous" className="icon-button" aria-label="Previous month">
                ‹
              </Button>
              <Heading className="calendar__title" />
              <Button slot="next" className="icon-button" aria-label="Next month">
                ›
              </Button>
            </header>
            <CalendarGrid className="calendar__grid">
              {(date) => <CalendarCell date={date} className="calendar__cell" />}
            </CalendarGrid>
          </RangeCalendar>
        </Dialog>
      </Popover>
    </AriaDateRangePicker>
  );
}
