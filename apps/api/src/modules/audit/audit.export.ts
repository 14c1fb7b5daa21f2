import type { Writable } from 'node:stream';
import { excel } from '../../lib/load-later.js';
import { inertCell } from '../../lib/spreadsheet-cells.js';
import type { ActivityRow } from './audit.repository.js';

// The filtered audit trail as an .xlsx workbook, written row by row (exceljs's streaming
// writer): one sheet, a header row, one row per event, newest first. Every text cell is made
// inert (lib/spreadsheet-cells.ts): a message such as `=HYPERLINK(…)` stays text.

const COLUMNS = [
  { header: 'Seq', key: 'seq', width: 10 },
  { header: 'When (UTC)', key: 'when', width: 24 },
  { header: 'User', key: 'user', width: 22 },
  { header: 'Type', key: 'type', width: 12 },
  { header: 'Action', key: 'action', width: 28 },
  { header: 'Message', key: 'message', width: 60 },
  { header: 'Object', key: 'object', width: 18 },
  { header: 'From (IP)', key: 'ip', width: 18 },
  { header: 'Details', key: 'details', width: 40 },
  { header: 'Hash', key: 'hash', width: 66 },
];

interface ActivityWriter {
  add(row: ActivityRow): void;
  finish(): Promise<void>;
}

export function activityWorkbook(out: Writable): ActivityWriter {
  const workbook = new (excel().stream.xlsx.WorkbookWriter)({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Quire';
  const sheet = workbook.addWorksheet('Audit trail', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS;
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  return {
    add(row) {
      const user = row.username ? `${row.username}` : 'system or anonymous';
      sheet
        .addRow({
          seq: Number(row.seq),
          when: `${row.created_at.toISOString().replace('T', ' ').slice(0, 19)}`,
          user: inertCell(user),
          type: inertCell(row.type),
          action: inertCell(row.action),
          message: inertCell(row.message),
          object: inertCell(row.target_type ? `${row.target_type} ${row.target_id ?? ''}`.trim() : ''),
          ip: inertCell(row.ip ?? ''),
          details: inertCell(
            row.details === null || row.details === undefined ? '' : JSON.stringify(row.details),
          ),
          hash: row.hash,
        })
        .commit();
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
  };
}
