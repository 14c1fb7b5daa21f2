import { Button, type Key, Tree, TreeItem, TreeItemContent } from 'react-aria-components';

export interface TreeNode {
  id: number | string;
  name: string;
  /** A second, quieter line (a count, a description). */
  detail?: string;
  children?: TreeNode[];
}

export interface TreeViewProps {
  /** Read by screen readers: "Categories". */
  label: string;
  items: TreeNode[];
  /** The chosen node, or null. */
  selected: TreeNode['id'] | null;
  onSelect: (id: TreeNode['id']) => void;
  /** Open branches; uncontrolled (all closed) when absent. */
  expanded?: Iterable<Key>;
  onExpandedChange?: (keys: Set<Key>) => void;
  /** Shown when there are no nodes. */
  emptyText?: string;
}

function Node({ node }: { node: TreeNode }) {
  return (
    <TreeItem id={node.id} textValue={node.name} className="tree__item">
      <TreeItemContent>
        {({ hasChildItems, isExpanded, level }) => (
          <div className="tree__row" style={{ paddingInlineStart: `${(level - 1) * 1.25 + 0.25}rem` }}>
            {hasChildItems ? (
              <Button
                slot="chevron"
                className="tree__chevron"
                aria-label={isExpanded ? 'Collapse' : 'Expand'}
              >
                <span aria-hidden="true">{isExpanded ? '▾' : '▸'}</span>
              </Button>
            ) : (
              <span className="tree__chevron" aria-hidden="true" />
            )}
            <span className="tree__name">{node.name}</span>
            {node.detail ? <span className="muted tree__detail">{node.detail}</span> : null}
          </div>
        )}
      </TreeItemContent>
      {node.children?.map((child) => (
        <Node key={child.id} node={child} />
      ))}
    </TreeItem>
  );
}

/**
 * A tree of nodes (React Aria's Tree: the ARIA treegrid pattern): ↑/↓ move, → opens a branch
 * (or moves into it), ← closes it (or moves to its parent), Home/End, typing a name jumps,
 * Enter or a click chooses the node.
 */
export function TreeView({
  label,
  items,
  selected,
  onSelect,
  expanded,
  onExpandedChange,
  emptyText = 'Nothing here yet.',
}: TreeViewProps) {
  return (
    <Tree
      aria-label={label}
      className="tree"
      selectionMode="single"
      selectionBehavior="replace"
      selectedKeys={selected === null ? [] : [selected]}
      onSelectionChange={(keys) => {
        const [key] = keys === 'all' ? [] : [...keys];
        if (key !== undefined) onSelect(key as TreeNode['id']);
      }}
      onAction={(key) => onSelect(key as TreeNode['id'])}
      {...(expanded ? { expandedKeys: expanded } : {})}
      {...(onExpandedChange ? { onExpandedChange } : {})}
      renderEmptyState={() => <p className="muted tree__empty">{emptyText}</p>}
    >
      {items.map((node) => (
        <Node key={node.id} node={node} />
      ))}
    </Tree>
  );
}
