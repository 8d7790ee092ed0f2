/**
 * The one key table: which key does what in each scope. The TUI routes keys by it and draws its
 * help and footer hints from it (source/ui/keys.ts); the config file's field hotkeys are checked
 * against it (config/hotkeys.ts), so it sits below both.
 */

/** Where a key is read: the list, or one of the overlays on top of it. */
export type Scope = 'list' | 'picker' | 'text' | 'queue' | 'history' | 'help' | 'confirm' | 'board'
	/** A field's value picker opened by a hotkey: digits pick, typing jumps. */
	| 'choice'
	/** The record full screen (Z): its keys page and scroll it. */
	| 'record'
	/** The review queue (P): accept, decline, a field alone, all. */
	| 'review';

export type Action =
	| 'down' | 'up' | 'pageDown' | 'pageUp' | 'top' | 'bottom'
	| 'open' | 'back' | 'search' | 'filter' | 'mark' | 'markAll'
	| 'edit' | 'undo' | 'run' | 'cancelRun' | 'followUps' | 'history' | 'help' | 'quit' | 'togglePane' | 'reload'
	| 'scrollPaneDown' | 'scrollPaneUp' | 'fullRecord'
	| 'choose' | 'toggle' | 'submit' | 'cancel'
	| 'type' | 'dismiss' | 'skip' | 'yes' | 'no'
	// Field hotkeys, bulk edits, $EDITOR.
	| 'editLong' | 'erase'
	// Views and the `:` line.
	| 'view' | 'command'
	// The runs board and watch mode.
	| 'board' | 'cancelAll' | 'watch' | 'focus'
	// Review before it lands.
	| 'review' | 'accept' | 'acceptAll' | 'decline' | 'acceptField' | 'diff' | 'revert';

export type Binding = {
	scope: Scope;
	action: Action;
	/** Key names as keyName() spells them: 'j', 'down', 'pagedown', 'enter', 'escape', 'space', 'ctrl+c'. */
	keys: readonly string[];
	/** How the keys are written on screen. */
	label: string;
	description: string;
	/** Shown in the footer of this scope. */
	hint?: string;
};

const TABLE = [
	{scope: 'list', action: 'down', keys: ['j', 'down'], label: 'j ↓', description: 'next row', hint: 'move'},
	{scope: 'list', action: 'up', keys: ['k', 'up'], label: 'k ↑', description: 'previous row'},
	{scope: 'list', action: 'pageDown', keys: ['pagedown', 'ctrl+d'], label: 'PgDn', description: 'page down (loads more as you go)', hint: 'page'},
	{scope: 'list', action: 'pageUp', keys: ['pageup', 'ctrl+u'], label: 'PgUp', description: 'page up'},
	{scope: 'list', action: 'top', keys: ['g', 'home'], label: 'g', description: 'the newest record'},
	{scope: 'list', action: 'bottom', keys: ['G', 'end'], label: 'G', description: 'the oldest record'},
	{scope: 'list', action: 'open', keys: ['enter'], label: 'Enter', description: 'show the record in the pane', hint: 'detail'},
	{scope: 'list', action: 'back', keys: ['escape'], label: 'Esc', description: 'close the pane, the marks, then search, filter and sort'},
	{scope: 'list', action: 'search', keys: ['/'], label: '/', description: 'search: words, or query terms with a sort (status:new sort:-due)', hint: 'search'},
	{scope: 'list', action: 'filter', keys: ['f'], label: 'f', description: 'filter by a field value', hint: 'filter'},
	{scope: 'list', action: 'mark', keys: ['space'], label: 'Space', description: 'mark or unmark the row, and move down', hint: 'mark'},
	{scope: 'list', action: 'markAll', keys: ['V'], label: 'V', description: 'mark all loaded rows (again: unmark all)'},
	{scope: 'list', action: 'edit', keys: ['e'], label: 'e', description: 'edit a field of the row', hint: 'edit'},
	{scope: 'list', action: 'editLong', keys: ['E'], label: 'E', description: 'edit the long text of the row in $EDITOR'},
	{scope: 'list', action: 'undo', keys: ['u'], label: 'u', description: 'undo your last edit', hint: 'undo'},
	{scope: 'list', action: 'run', keys: ['c'], label: 'c', description: 'run Codex on the marked rows (or this one)', hint: 'codex'},
	{scope: 'list', action: 'cancelRun', keys: ['x'], label: 'x', description: 'cancel the running Codex run'},
	{scope: 'list', action: 'cancelAll', keys: ['X'], label: 'X', description: 'cancel every Codex run (all the board\'s runs)'},
	{scope: 'list', action: 'board', keys: ['b'], label: 'b', description: 'the runs board: a fan-out\'s or a watch\'s runs'},
	{scope: 'list', action: 'watch', keys: ['W'], label: 'W', description: 'watch mode on/off: new items go to Codex in batches'},
	{scope: 'list', action: 'followUps', keys: ['F'], label: 'F', description: 'follow-up queue: fields Codex could not set', hint: 'follow-ups'},
	{scope: 'list', action: 'history', keys: ['R'], label: 'R', description: 'run history'},
	{scope: 'list', action: 'review', keys: ['P'], label: 'P', description: 'review queue: what runs in propose mode would change', hint: 'review'},
	{scope: 'list', action: 'togglePane', keys: ['tab'], label: 'Tab', description: 'switch the pane between record and run'},
	{scope: 'list', action: 'scrollPaneDown', keys: ['J'], label: 'J', description: 'scroll the record pane down (long descriptions)'},
	{scope: 'list', action: 'scrollPaneUp', keys: ['K'], label: 'K', description: 'scroll the record pane up'},
	{scope: 'list', action: 'fullRecord', keys: ['Z'], label: 'Z', description: 'the record full screen (PgDn and Space page it)'},
	{scope: 'list', action: 'reload', keys: ['r'], label: 'r', description: 'reload from the newest record'},
	{scope: 'list', action: 'view', keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9'], label: '1–9', description: 'switch to the view of that tab', hint: 'views'},
	{scope: 'list', action: 'command', keys: [':'], label: ':', description: 'command: :BUG-0042 :sort -due :view NAME :set F V :q', hint: 'command'},
	{scope: 'list', action: 'help', keys: ['?'], label: '?', description: 'this help', hint: 'help'},
	{scope: 'list', action: 'quit', keys: ['q', 'ctrl+c'], label: 'q', description: 'quit (asks first while a run is active)', hint: 'quit'},

	{scope: 'picker', action: 'down', keys: ['j', 'down', 'tab'], label: 'j ↓', description: 'next choice', hint: 'move'},
	{scope: 'picker', action: 'up', keys: ['k', 'up'], label: 'k ↑', description: 'previous choice'},
	{scope: 'picker', action: 'toggle', keys: ['space'], label: 'Space', description: 'toggle an option (multiple choice)'},
	{scope: 'picker', action: 'choose', keys: ['enter'], label: 'Enter', description: 'choose', hint: 'choose'},
	{scope: 'picker', action: 'cancel', keys: ['escape', 'q'], label: 'Esc', description: 'back', hint: 'back'},

	{scope: 'text', action: 'submit', keys: ['enter'], label: 'Enter', description: 'accept', hint: 'accept'},
	{scope: 'text', action: 'cancel', keys: ['escape'], label: 'Esc', description: 'cancel', hint: 'cancel'},

	{scope: 'queue', action: 'down', keys: ['j', 'down'], label: 'j ↓', description: 'next allowed value', hint: 'move'},
	{scope: 'queue', action: 'up', keys: ['k', 'up'], label: 'k ↑', description: 'previous allowed value'},
	{scope: 'queue', action: 'choose', keys: ['enter'], label: 'Enter', description: 'set the chosen value, then the next follow-up', hint: 'set'},
	{scope: 'queue', action: 'type', keys: ['t'], label: 't', description: 'type a value', hint: 'type'},
	{scope: 'queue', action: 'dismiss', keys: ['d'], label: 'd', description: 'dismiss the follow-up (asks first)', hint: 'dismiss'},
	{scope: 'queue', action: 'skip', keys: ['n', 'right'], label: 'n →', description: 'next follow-up', hint: 'next'},
	{scope: 'queue', action: 'back', keys: ['p', 'left'], label: 'p ←', description: 'previous follow-up'},
	{scope: 'queue', action: 'cancel', keys: ['escape', 'q', 'F'], label: 'Esc', description: 'close the queue', hint: 'close'},

	{scope: 'history', action: 'down', keys: ['j', 'down'], label: 'j ↓', description: 'next run', hint: 'move'},
	{scope: 'history', action: 'up', keys: ['k', 'up'], label: 'k ↑', description: 'previous run'},
	{scope: 'history', action: 'open', keys: ['enter'], label: 'Enter', description: 'show the run\'s steps and answer', hint: 'open'},
	{scope: 'history', action: 'cancel', keys: ['escape', 'q', 'R'], label: 'Esc', description: 'close', hint: 'close'},
	{scope: 'history', action: 'diff', keys: ['D'], label: 'D', description: 'the run\'s diff: each field from → to, and the value now', hint: 'diff'},
	{scope: 'history', action: 'revert', keys: ['U'], label: 'U', description: 'revert the run: U shows what it would do, U again does it', hint: 'revert'},
	{scope: 'history', action: 'pageDown', keys: ['pagedown', 'space', 'ctrl+d'], label: 'PgDn', description: 'an open run: the next page of its steps and answer (j/k a line)', hint: 'page'},
	{scope: 'history', action: 'pageUp', keys: ['pageup', 'ctrl+u'], label: 'PgUp', description: 'an open run: the page before'},

	{scope: 'review', action: 'down', keys: ['j', 'down', 'n', 'right'], label: 'j ↓', description: 'next proposal', hint: 'move'},
	{scope: 'review', action: 'up', keys: ['k', 'up', 'p', 'left'], label: 'k ↑', description: 'previous proposal'},
	{scope: 'review', action: 'accept', keys: ['a'], label: 'a', description: 'accept the proposal (on a conflict shown: again writes it over)', hint: 'accept'},
	{scope: 'review', action: 'decline', keys: ['d'], label: 'd', description: 'decline the proposal', hint: 'decline'},
	{scope: 'review', action: 'acceptField', keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9'], label: '1–9', description: 'accept that field of the proposal alone', hint: 'one field'},
	{scope: 'review', action: 'acceptAll', keys: ['A'], label: 'A', description: 'accept every proposal shown, as one edit (u undoes it)', hint: 'all'},
	{scope: 'review', action: 'yes', keys: ['y'], label: 'y', description: 'write a conflicting proposal over the current values'},
	{scope: 'review', action: 'cancel', keys: ['escape', 'q', 'P'], label: 'Esc', description: 'close the queue', hint: 'close'},

	{scope: 'help', action: 'down', keys: ['j', 'down'], label: 'j ↓', description: 'scroll down a line', hint: 'scroll'},
	{scope: 'help', action: 'up', keys: ['k', 'up'], label: 'k ↑', description: 'scroll up a line'},
	{scope: 'help', action: 'pageDown', keys: ['pagedown', 'space', 'ctrl+d'], label: 'PgDn', description: 'scroll down a screen', hint: 'page'},
	{scope: 'help', action: 'pageUp', keys: ['pageup', 'ctrl+u'], label: 'PgUp', description: 'scroll up a screen'},
	{scope: 'help', action: 'cancel', keys: ['escape', 'q', '?'], label: 'Esc', description: 'close help', hint: 'close'},

	{scope: 'choice', action: 'down', keys: ['down', 'tab'], label: '↓', description: 'next choice', hint: 'move'},
	{scope: 'choice', action: 'up', keys: ['up'], label: '↑', description: 'previous choice'},
	{scope: 'choice', action: 'choose', keys: ['enter'], label: 'Enter', description: 'choose', hint: 'choose'},
	{scope: 'choice', action: 'toggle', keys: ['space'], label: 'Space', description: 'tick or untick (multiple choice)'},
	{scope: 'choice', action: 'erase', keys: ['backspace'], label: 'Bksp', description: 'forget the last typed letter'},
	{scope: 'choice', action: 'cancel', keys: ['escape'], label: 'Esc', description: 'back', hint: 'back'},

	{scope: 'board', action: 'down', keys: ['j', 'down'], label: 'j ↓', description: 'next run', hint: 'move'},
	{scope: 'board', action: 'up', keys: ['k', 'up'], label: 'k ↑', description: 'previous run'},
	{scope: 'board', action: 'focus', keys: ['enter'], label: 'Enter', description: 'the run\'s live steps (again: back to the board)', hint: 'steps'},
	{scope: 'board', action: 'cancelRun', keys: ['x'], label: 'x', description: 'cancel this run', hint: 'cancel'},
	{scope: 'board', action: 'cancelAll', keys: ['X'], label: 'X', description: 'cancel every run', hint: 'cancel all'},
	{scope: 'board', action: 'watch', keys: ['W'], label: 'W', description: 'watch mode on/off'},
	{scope: 'board', action: 'cancel', keys: ['escape', 'q', 'b'], label: 'Esc', description: 'back to the list (the runs go on)', hint: 'back'},

	{scope: 'record', action: 'pageDown', keys: ['pagedown', 'space', 'ctrl+d'], label: 'PgDn', description: 'the next page of the record', hint: 'page'},
	{scope: 'record', action: 'pageUp', keys: ['pageup', 'ctrl+u'], label: 'PgUp', description: 'the page before'},
	{scope: 'record', action: 'down', keys: ['j', 'down'], label: 'j ↓', description: 'scroll down a line', hint: 'scroll'},
	{scope: 'record', action: 'up', keys: ['k', 'up'], label: 'k ↑', description: 'scroll up a line'},
	{scope: 'record', action: 'scrollPaneDown', keys: ['J'], label: 'J', description: 'scroll down five lines'},
	{scope: 'record', action: 'scrollPaneUp', keys: ['K'], label: 'K', description: 'scroll up five lines'},
	{scope: 'record', action: 'top', keys: ['g', 'home'], label: 'g', description: 'the start of the record'},
	{scope: 'record', action: 'bottom', keys: ['G', 'end'], label: 'G', description: 'the end of the record'},
	{scope: 'record', action: 'cancel', keys: ['escape', 'q', 'Z'], label: 'Esc', description: 'back to the list and its pane', hint: 'back'},

	{scope: 'confirm', action: 'yes', keys: ['y', 'Y'], label: 'y', description: 'yes', hint: 'yes'},
	{scope: 'confirm', action: 'no', keys: ['n', 'N', 'escape'], label: 'n', description: 'no', hint: 'no'},
] as const satisfies readonly Binding[];

/** The table as its readers see it (routing, help, footer, hotkeys). */
export const BINDINGS: readonly Binding[] = TABLE;

/**
 * The actions bound in one scope, from the table: the key handlers (input/handlers.ts) are typed
 * over these, so a binding without a handler does not compile.
 */
export type ActionOf<S extends Scope> = Extract<(typeof TABLE)[number], {scope: S}>['action'];
