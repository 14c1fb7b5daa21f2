import { Button } from './button';
export interface PaginationProps {
  page: number;
  lastPage: number;
  total: number;
  quantity: number;
  /** What is counted: "users", "messages". */
  noun: string;
  onPage: (page: number) => void;
  busy?: boolean;
}

/** A page of a list as the API answers it (`pageMeta`). */
export interface PageAnswer {
  page: number;
  last_page: number;
  total: number;
  quantity: number;
}

/** The pagination of a list's answer, or none while it loads. */
export function pagingOf(
  answer: PageAnswer | undefined,
  noun: string,
  onPage: (page: number) => void,
  busy?: boolean,
): PaginationProps | undefined {
  if (!answer) return undefined;
  const { page, last_page: lastPage, total, quantity } = answer;
  return { page, lastPage, total, quantity, noun, onPage, busy };
}

/** "21–40 of 57 users", with Previous / Next and the page number. */
export function Pagination({ page, lastPage, total, quantity, noun, onPage, busy = false }: PaginationProps) {
  const first = total === 0 ? 0 : (page - 1) * quantity + 1;
  const last = Math.min(total, page * quantity);
  const pages = Math.max(lastPage, 1);
  return (
    <nav className="pagination" aria-label="Pagination">
      <p className="muted" aria-live="polite">
        {total === 0 ? `0 ${noun}` : `${first}–${last} of ${total} ${noun}`}
      </p>
      <div className="pagination__controls">
        <Button variant="ghost" small onClick={() => onPage(page - 1)} disabled={busy || page <= 1}>
          Previous
        </Button>
        <span className="pagination__page">
          Page {Math.min(page, pages)} of {pages}
        </span>
        <Button variant="ghost" small onClick={() => onPage(page + 1)} disabled={busy || page >= pages}>
          Next
        </Button>
      </div>
    </nav>
  );
}

/** Pagination for one page of a paged answer (`{ page, last_page, total, quantity }`); nothing when empty. */
export function PageNavigation({
  data,
  noun,
  onPage,
  busy,
}: {
  data: PageAnswer | undefined;
} & Pick<PaginationProps, 'noun' | 'onPage' | 'busy'>) {
  const paging = data && data.total > 0 ? pagingOf(data, noun, onPage, busy) : undefined;
  return paging ? <Pagination {...paging} /> : null;
}
