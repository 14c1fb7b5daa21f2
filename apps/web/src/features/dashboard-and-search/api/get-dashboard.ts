import type { DashboardTable } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/dashboard/table?table&page: one of the four dashboard tables, a page at a time. */
export function useDashboardTable(table: DashboardTable, page: number) {
  return useQuery({
    ...apiQueryOptions(calls.dashboardAndSearch.dashboardTable, { query: { table, page, quantity: 10 } }),
    placeholderData: keepPreviousData,
  });
}
