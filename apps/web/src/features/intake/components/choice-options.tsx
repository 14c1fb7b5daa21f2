import { useCategoryChoices, useGroupChoices, usePeopleChoices } from '../api/intake';

// The <option>s the intake forms choose from, after their own first "Choose …" option: the
// categories by path, the active people by name and username, the groups by name.

export function CategoryOptions() {
  const categories = useCategoryChoices();
  return (categories.data ?? []).map((c) => (
    <option key={c.id} value={c.id}>
      {c.path}
    </option>
  ));
}

export function PersonOptions() {
  const people = usePeopleChoices();
  return (people.data ?? []).map((u) => (
    <option key={u.id} value={u.id}>
      {u.name} ({u.username})
    </option>
  ));
}

export function GroupOptions() {
  const groups = useGroupChoices();
  return (groups.data ?? []).map((g) => (
    <option key={g.id} value={g.id}>
      {g.name}
    </option>
  ));
}
