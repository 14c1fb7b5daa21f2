import { MenuItem as AriaMenuItem, Button, Menu, MenuTrigger, Popover } from 'react-aria-components';

export interface MenuItem {
  /** What the item shows: "Delete". */
  label: string;
  /** Its accessible name, naming the row it acts on: "Delete Alice Smith". */
  name?: string;
  danger?: boolean;
  onSelect: () => void;
}

/**
 * A button that opens a menu of actions (React Aria's menu button): Enter, Space or ↓ opens it
 * on the first item, ↑ on the last; arrows, Home, End and typing move; Enter or Space chooses;
 * Esc closes it, the focus back on the button. The menu floats above the page, so that a
 * table's scroll box does not cut it off.
 */
export function MenuButton({
  label,
  name,
  items,
}: {
  /** What the button shows: "More". */
  label: string;
  /** The button's accessible name: "More actions for Alice Smith". */
  name: string;
  items: MenuItem[];
}) {
  return (
    <MenuTrigger>
      <Button className="button button--link button--small menu-button" aria-label={name}>
        {label}
        <span aria-hidden="true" className="menu-button__caret">
          ▾
        </span>
      </Button>
      <Popover className="menu-popover" placement="bottom end" offset={4}>
        <Menu
          className="menu"
          aria-label={name}
          onAction={(key) => items.find((item) => item.label === key)?.onSelect()}
        >
          {items.map((item) => (
            <AriaMenuItem
              key={item.label}
              id={item.label}
              aria-label={item.name}
              textValue={item.label}
              className={`menu__item${item.danger ? ' is-danger' : ''}`}
            >
              {item.label}
            </AriaMenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
