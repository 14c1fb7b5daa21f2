-- Search vectors off the upload path (issue 29).
--
-- files_search_vector computed a new file's whole vector on INSERT: its name, and its metadata
-- values, tags, comments and extracted text, each a subquery of quire_file_search_vector (a
-- SQL function planned anew in each transaction). A new row has none of the middle three
-- (file_field_values, file_tags and comments reference files, so they come after it) and a new
-- upload has no text yet (the search.extract job adds it later, and version_texts_search folds
-- it in). On INSERT the vector is now its name and its version's text only: the same vector,
-- for a fraction of the cost. On UPDATE it is rebuilt only when the name or the current
-- version really changed (an UPDATE that sets them to what they were keeps its vector).

CREATE OR REPLACE FUNCTION quire_files_search_vector_row() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  text_vector tsvector;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.current_version_id IS NOT NULL THEN
      SELECT vt.search_vector INTO text_vector FROM version_texts vt
       WHERE vt.version_id = NEW.current_version_id AND vt.status = 'done';
    END IF;
    NEW.search_vector := setweight(to_tsvector(quire_search_config(), NEW.name), 'A')
                         || coalesce(text_vector, ''::tsvector);
  ELSE
    NEW.search_vector := quire_file_search_vector(NEW.id, NEW.name, NEW.current_version_id);
  END IF;
  RETURN NEW;
END
$$;

DROP TRIGGER files_search_vector ON files;
CREATE TRIGGER files_search_vector BEFORE INSERT ON files
  FOR EACH ROW EXECUTE FUNCTION quire_files_search_vector_row();
CREATE TRIGGER files_search_vector_change BEFORE UPDATE OF name, current_version_id ON files
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.current_version_id IS DISTINCT FROM NEW.current_version_id)
  EXECUTE FUNCTION quire_files_search_vector_row();
