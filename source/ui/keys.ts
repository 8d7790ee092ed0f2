import type {Key} from '#ink';
import {BINDINGS, type Action, type ActionOf, type Scope} from '../config/key-table.js';

export {BINDINGS, type Action, type ActionOf, type Binding, type Scope} from '../config/key-table.js';

// The key table in the TUI: the input router looks actions up here, and the help screen and the
// footer hints are rendered from it, so what the screen says is what the keys do. The table itself
// is config/key-table.ts (the config's hotkeys are checked against it).

export const SCOPE_TITLES: Record<Scope, string> = {
	list: 'List',
	picker: 'Pickers (edit, filter)',
	text: 'Text input (search, typed values, instruction)',
	queue: 'Follow-up queue (F)',
	history: 'Run history (R)',
	help: 'Help',
	confirm: 'Questions',
	choice: 'Field picker (a field hotkey): 1–9 pick, letters jump',

	board: 'Runs board (b)',
	record: 'The record full screen (Z)',
	review: 'Review queue (P)',
};

/** The canonical name of a keypress, as the table spells keys. */
export function keyName(input: string, key: Key): string {
	if (key.upArrow) return 'up';
	if (key.downArrow) return 'down';
	if (key.leftArrow) return 'left';
	if (key.rightArrow) return 'right';
	if (key.pageDown) return 'pagedown';
	if (key.pageUp) return 'pageup';
	if (key.home) return 'home';
	if (key.end) return 'end';
	if (key.return) return 'enter';
	if (key.escape) return 'escape';
	if (key.tab) return 'tab';
	if (key.backspace) return 'backspace';
	if (key.delete) return 'delete';
	if (key.ctrl && input) return `ctrl+${input.toLowerCase()}`;
	if (input === ' ') return 'space';
	return input;
}

const index = new Map<string, Action>();
for (const binding of BINDINGS) {
	for (const name of binding.keys) {
		index.set(`${binding.scope}:${name}`, binding.action);
	}
}

export function actionFor<S extends Scope>(scope: S, input: string, key: Key): ActionOf<S> | undefined {
	return index.get(`${scope}:${keyName(input, key)}`) as ActionOf<S> | undefined;
}

/** The footer's key hints for a scope, from the table. */
export function hintsFor(scope: Scope): Array<{label: string; hint: string}> {
	return BINDINGS.filter(binding => binding.scope === scope && binding.hint).map(binding => ({label: binding.label, hint: binding.hint!}));
}
