import type { TFoundFile } from '@quire/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { pickAndClear } from '../../../components/picker-parts';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { refreshFoundFiles } from '../api/find-files';
import { useSearchSuggestions } from '../api/search-files';
import { fileLink, searchLink } from '../lib/file-link';
import { MarkedText } from './marked-text';

/**
 * The header search of every signed-in page (React Aria combo box): typing shows the best
 * matching files as suggestions (a newer text cancels the request in flight); arrows and
 * Enter (or a click) open one; Enter on the text itself, or Search, opens the results page.
 */
export function HeaderSearch() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), 200);
  const query = useSearchSuggestions(search);
  const items: TFoundFile[] = search ? (query.data?.items ?? []) : [];
  const showAll = () => {
    const q = text.trim();
    if (!/[\p{L}\p{N}]/u.test(q)) return;
    // The results page takes over (with its own search box): the suggestions close.
    setText('');
    void refreshFoundFiles(queryClient);
    navigate(searchLink(q));
  };
  return (
    <search className="header-search">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          showAll();
        }}
      >
        <ComboBox
          className="header-search__combo"
          items={items}
          {...pickAndClear(text, setText, (id) => navigate(fileLink(id)))}
          menuTrigger="input"
          allowsEmptyCollection
        >
          <Label className="sr-only">Search files</Label>
          <Input
            className="control header-search__input"
            placeholder="Search files by name, metadata or content"
            onKeyDown={(e) => {
              // Enter with no suggestion chosen: the results page.
              if (e.key === 'Enter' && !e.currentTarget.getAttribute('aria-activedescendant')) showAll();
            }}
          />
          <Popover className="header-search__popover" placement="bottom start">
            <ListBox<TFoundFile>
              className="header-search__list"
              renderEmptyState={() => (
                <p className="muted header-search__empty">
                  {query.isFetching ? 'Searching…' : search ? `No files match "${search}"` : 'Type to search'}
                </p>
              )}
            >
              {(file) => (
                <ListBoxItem id={file.id} textValue={file.name} className="header-search__item">
                  <span className="header-search__name">
                    <MarkedText html={file.name_html} />
                  </span>
                  <span className="muted header-search__where">
                    {file.category?.name ?? 'Not indexed yet'}
                    {file.snippet_html ? (
                      <>
                        {' · '}
                        <MarkedText html={file.snippet_html} />
                      </>
                    ) : null}
                  </span>
                </ListBoxItem>
              )}
            </ListBox>
          </Popover>
        </ComboBox>
        <Button type="submit" className="button button--ghost button--small">
          Search
        </Button>
      </form>
    </search>
  );
}
