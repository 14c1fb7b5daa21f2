import { SearchResultsPage } from '../../features/dashboard-and-search/routes/search-results';
import { SavedViewsPanel, SaveViewButton } from '../../features/saved-view/components/saved-views-panel';

// The search page, with "Save view…" for the search shown and the person's saved views.
export function Search() {
  return (
    <SearchResultsPage actions={(query) => <SaveViewButton query={query} />} aside={<SavedViewsPanel />} />
  );
}
