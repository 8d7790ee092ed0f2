/**
 * The list's keys: the letters the list holds, how help and the footer write them, what each does.
 * The config file's field hotkeys are checked against them (config/hotkeys.ts), and the config sits
 * below the TUI, so they are written here; every other key is its feature's (source/ui/features/),
 * and each list key is claimed there by the one feature whose event it sends (ui/registry.ts: a
 * list key no feature claims does not compile).
 */

export type ListKey = {
	/** Key names as keyName() spells them: 'j', 'down', 'pagedown', 'enter', 'escape', 'space', 'ctrl+c'. */
	keys: readonly string[];
	/** How the keys are written on screen. */
	label: string;
	description: string;
	/** Shown in the list's footer. */
	hint?: string;
};

const TABLE = {
	down: {keys: ['j', 'down'], label: 'j ↓', description: 'next row', hint: 'move'},
	up: {keys: ['k', 'up'], label: 'k ↑', description: 'previous row'},
	pageDown: {keys: ['pagedown', 'ctrl+d'], label: 'PgDn', description: 'page down (loads more as you go)', hint: 'page'},
	pageUp: {keys: ['pageup', 'ctrl+u'], label: 'PgUp', description: 'page up'},
	top: {keys: ['g', 'home'], label: 'g', description: 'the newest record'},
	bottom: {keys: ['G', 'end'], label: 'G', description: 'the oldest record'},
	open: {keys: ['enter'], label: 'Enter', description: 'show the record in the pane', hint: 'detail'},
	back: {keys: ['escape'], label: 'Esc', description: 'close the pane, the marks, then search, filter and sort'},
	search: {keys: ['/'], label: '/', description: 'search: words, or query terms with a sort (status:new sort:-due)', hint: 'search'},
	filter: {keys: ['f'], label: 'f', description: 'filter by a field value', hint: 'filter'},
	mark: {keys: ['space'], label: 'Space', description: 'mark or unmark the row, and move down', hint: 'mark'},
	markAll: {keys: ['V'], label: 'V', description: 'mark all loaded rows (again: unmark all)'},
	edit: {keys: ['e'], label: 'e', description: 'edit a field of the row', hint: 'edit'},
	editLong: {keys: ['E'], label: 'E', description: 'edit the long text of the row in $EDITOR'},
	undo: {keys: ['u'], label: 'u', description: 'undo your last edit', hint: 'undo'},
	run: {keys: ['c'], label: 'c', description: 'run Codex on the marked rows (or this one)', hint: 'codex'},
	cancelRun: {keys: ['x'], label: 'x', description: 'cancel the running Codex run'},
	cancelAll: {keys: ['X'], label: 'X', description: 'cancel every Codex run (all the board\'s runs)'},
	board: {keys: ['b'], label: 'b', description: 'the runs board: a fan-out\'s or a watch\'s runs'},
	watch: {keys: ['W'], label: 'W', description: 'watch mode on/off: new items go to Codex in batches'},
	followUps: {keys: ['F'], label: 'F', description: 'follow-up queue: fields Codex could not set', hint: 'follow-ups'},
	history: {keys: ['R'], label: 'R', description: 'run history'},
	review: {keys: ['P'], label: 'P', description: 'review queue: what runs in propose mode would change', hint: 'review'},
	togglePane: {keys: ['tab'], label: 'Tab', description: 'switch the pane between record and run'},
	scrollPaneDown: {keys: ['J'], label: 'J', description: 'scroll the record pane down (long descriptions)'},
	scrollPaneUp: {keys: ['K'], label: 'K', description: 'scroll the record pane up'},
	fullRecord: {keys: ['Z'], label: 'Z', description: 'the record full screen (PgDn and Space page it)'},
	openLink: {keys: ['O'], label: 'O', description: 'open the record\'s link in the browser (no opener: shown to copy)'},
	reload: {keys: ['r'], label: 'r', description: 'reload from the newest record'},
	view: {keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9'], label: '1–9', description: 'switch to the view of that tab', hint: 'views'},
	command: {keys: [':'], label: ':', description: 'command: :BUG-0042 :sort -due :view NAME :set F V :q', hint: 'command'},
	help: {keys: ['?'], label: '?', description: 'this help', hint: 'help'},
	quit: {keys: ['q', 'ctrl+c'], label: 'q', description: 'quit (asks first while a run is active)', hint: 'quit'},
} as const satisfies Record<string, ListKey>;

/** What a list key does, by name. */
export type ListAction = keyof typeof TABLE;

/** The list's keys by action, in the order help and the footer show them. */
export const LIST_KEYS: Readonly<Record<ListAction, ListKey>> = TABLE;
