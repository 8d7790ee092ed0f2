import type {Key} from '#ink';
import {actionFor, keyName, type ActionOf, type Scope} from '../keys.js';
import {PANE_SCROLL_STEP} from '../record-scroll.js';
import type {ScreenEvent} from '../state.js';

/**
 * What each bound key means, per scope: `(scope, key) -> events`. Typed over the key table, so an
 * action bound in keys.ts without an entry here (or an entry for an unbound one) fails to compile.
 * The reducer (reducer.ts) decides what the event does in the state it finds.
 */
export const HANDLERS = {
	list: {
		down: {type: 'move', rows: 1},
		up: {type: 'move', rows: -1},
		pageDown: {type: 'page', pages: 1},
		pageUp: {type: 'page', pages: -1},
		top: {type: 'top'},
		bottom: {type: 'bottom'},
		open: {type: 'openDetail'},
		back: {type: 'back'},
		search: {type: 'openSearch'},
		filter: {type: 'openFilter'},
		mark: {type: 'mark'},
		markAll: {type: 'markAll'},
		edit: {type: 'openEdit'},
		editLong: {type: 'openEditor'},
		undo: {type: 'undo'},
		run: {type: 'askRun'},
		cancelRun: {type: 'askCancelRun'},
		cancelAll: {type: 'cancelAllRuns'},
		board: {type: 'openBoard'},
		watch: {type: 'toggleWatch'},
		followUps: {type: 'openQueue'},
		history: {type: 'openHistory'},
		togglePane: {type: 'togglePane'},
		scrollPaneDown: {type: 'scrollPane', move: {lines: PANE_SCROLL_STEP}},
		scrollPaneUp: {type: 'scrollPane', move: {lines: -PANE_SCROLL_STEP}},
		fullRecord: {type: 'fullRecord'},
		reload: {type: 'reload'},
		help: {type: 'openHelp'},
		quit: {type: 'quit'},
		// The digit says which view: filled in from the key by keyEvents.
		view: {type: 'switchView', index: 0},
		command: {type: 'openCommand'},
		review: {type: 'openReview'},
	},
	picker: {
		down: {type: 'cursor', delta: 1},
		up: {type: 'cursor', delta: -1},
		toggle: {type: 'toggle'},
		choose: {type: 'choose'},
		cancel: {type: 'cancel'},
	},
	text: {
		submit: {type: 'submit'},
		cancel: {type: 'cancel'},
	},
	queue: {
		down: {type: 'cursor', delta: 1},
		up: {type: 'cursor', delta: -1},
		choose: {type: 'choose'},
		type: {type: 'queueType'},
		dismiss: {type: 'queueDismiss'},
		skip: {type: 'queueStep', delta: 1},
		back: {type: 'queueStep', delta: -1},
		cancel: {type: 'cancel'},
	},
	history: {
		down: {type: 'cursor', delta: 1},
		up: {type: 'cursor', delta: -1},
		open: {type: 'choose'},
		cancel: {type: 'cancel'},
		diff: {type: 'runDiff'},
		revert: {type: 'runRevert'},
		pageDown: {type: 'page', pages: 1},
		pageUp: {type: 'page', pages: -1},
	},
	review: {
		down: {type: 'cursor', delta: 1},
		up: {type: 'cursor', delta: -1},
		accept: {type: 'reviewAccept'},
		decline: {type: 'reviewDecline'},
		// The digit says which field: filled in from the key by keyEvents.
		acceptField: {type: 'reviewField', index: 0},
		acceptAll: {type: 'reviewAcceptAll'},
		yes: {type: 'answer', yes: true},
		cancel: {type: 'cancel'},
	},
	help: {
		down: {type: 'cursor', delta: 1},
		up: {type: 'cursor', delta: -1},
		pageDown: {type: 'page', pages: 1},
		pageUp: {type: 'page', pages: -1},
		cancel: {type: 'cancel'},
	},
	choice: {
		down: {type: 'cursor', delta: 1},
		up: {type: 'cursor', delta: -1},
		choose: {type: 'choose'},
		toggle: {type: 'toggle'},
		erase: {type: 'erase'},
		cancel: {type: 'cancel'},
	},
	board: {
		down: {type: 'boardMove', delta: 1},
		up: {type: 'boardMove', delta: -1},
		focus: {type: 'boardFocus'},
		cancelRun: {type: 'boardCancel'},
		cancelAll: {type: 'cancelAllRuns'},
		watch: {type: 'toggleWatch'},
		cancel: {type: 'closeBoard'},
	},
	record: {
		pageDown: {type: 'scrollPane', move: {pages: 1}},
		pageUp: {type: 'scrollPane', move: {pages: -1}},
		down: {type: 'scrollPane', move: {lines: 1}},
		up: {type: 'scrollPane', move: {lines: -1}},
		scrollPaneDown: {type: 'scrollPane', move: {lines: PANE_SCROLL_STEP}},
		scrollPaneUp: {type: 'scrollPane', move: {lines: -PANE_SCROLL_STEP}},
		top: {type: 'scrollPane', move: {to: 'top'}},
		bottom: {type: 'scrollPane', move: {to: 'bottom'}},
		cancel: {type: 'fullRecord'},
	},
	confirm: {
		yes: {type: 'answer', yes: true},
		no: {type: 'answer', yes: false},
	},
} as const satisfies {[S in Scope]: {[A in ActionOf<S>]: ScreenEvent}};

/** One key in a scope: Ctrl+C anywhere, a bound action, or (in a text input) a typed key. `at`: when it was pressed (ms). */
export function keyEvents(scope: Scope, input: string, key: Key, at?: number): ScreenEvent[] {
	if (keyName(input, key) === 'ctrl+c') return [{type: 'interrupt'}];
	const action = actionFor(scope, input, key);
	if (action !== undefined) {
		const event = (HANDLERS[scope] as Record<string, ScreenEvent>)[action]!;
		if (event.type === 'switchView' || event.type === 'reviewField') return [{...event, index: Number(input) - 1}];
		// `e` on marks opens the field edit without a read: its clock is the keypress's.
		return [event.type === 'openEdit' && at !== undefined ? {...event, at} : event];
	}

	if (scope === 'choice') return [{type: 'pickType', input, key}];
	return scope === 'text' ? [{type: 'type', input, key}] : [];
}
