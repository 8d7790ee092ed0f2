// The one list of the TUI's features (docs/architecture.md#adding-an-overlay): every overlay's
// folder under features/, by the overlay kind it opens. What the screen routes, performs and draws
// is derived from this table: the reducer's case tables (reducer.ts), the effect table
// (hooks/effects.ts), the key bindings and their routing, the help's lines and order (the order
// here), the footer's hints, and the body, pane or prompt an open overlay draws (components/body.tsx,
// screen.tsx). Adding an overlay is its folder and one line here.

import type {Key} from '#ink';
import {LIST_KEYS, type ListAction} from '../config/key-table.js';
import {BOARD} from './features/board/slice.js';
import {BOARD_VIEW} from './features/board/view.js';
import {COLUMNS} from './features/columns/slice.js';
import {COLUMNS_VIEW} from './features/columns/view.js';
import {CONFIRM} from './features/confirm/slice.js';
import {CONFIRM_VIEW} from './features/confirm/view.js';
import type {AnySlice, Binding, EffectKind, EffectTable, OverlayKind, Scope} from './features/feature.js';
import {FIELD_EDIT} from './features/field-edit/slice.js';
import {FIELD_EDIT_VIEW} from './features/field-edit/view.js';
import {FILTER} from './features/filter/slice.js';
import {FILTER_VIEW} from './features/filter/view.js';
import {FOLLOWUPS} from './features/followups/slice.js';
import {FOLLOWUPS_VIEW} from './features/followups/view.js';
import {helpFeature} from './features/help/slice.js';
import {helpView} from './features/help/view.js';
import {HISTORY} from './features/history/slice.js';
import {HISTORY_VIEW} from './features/history/view.js';
import {LIST} from './features/list/slice.js';
import {PROBLEMS} from './features/problems/slice.js';
import {PROBLEMS_VIEW} from './features/problems/view.js';
import {RECORD} from './features/record/slice.js';
import {RECORD_VIEW} from './features/record/view.js';
import {REVIEW} from './features/review/slice.js';
import {REVIEW_VIEW} from './features/review/view.js';
import {INSTRUCTION} from './features/run/slice.js';
import {INSTRUCTION_VIEW} from './features/run/view.js';
import {SEARCH} from './features/search/slice.js';
import {SEARCH_VIEW} from './features/search/view.js';
import {SIMILAR} from './features/similar/slice.js';
import {SIMILAR_VIEW} from './features/similar/view.js';
import {SYNC_CONFLICTS} from './features/sync-conflicts/slice.js';
import {SYNC_CONFLICTS_VIEW} from './features/sync-conflicts/view.js';
import {COMMAND} from './features/views/slice.js';
import {COMMAND_VIEW} from './features/views/view.js';
import {bindingHelpLines, withHelpLines, type HelpLine} from './help-lines.js';
import {keyName} from './keys.js';
import {hotkeyHelpLines} from './model/hotkeys.js';
import type {Overlay, ScreenEvent, ScreenState} from './state.js';

/**
 * Every feature, by the overlay kind it opens (`none`: the list): its slice (state, events, bindings,
 * effects: features/NAME/slice.ts) with its view (features/NAME/view.tsx). Help lists their scopes in this order.
 */
export const FEATURES = {
	none: LIST,
	record: {...RECORD, view: RECORD_VIEW},
	board: {...BOARD, view: BOARD_VIEW},
	fieldEdit: {...FIELD_EDIT, view: FIELD_EDIT_VIEW},
	queue: {...FOLLOWUPS, view: FOLLOWUPS_VIEW},
	history: {...HISTORY, view: HISTORY_VIEW},
	review: {...REVIEW, view: REVIEW_VIEW},
	help: {...helpFeature(helpLinesOf), view: helpView(helpLinesOf)},
	confirm: {...CONFIRM, view: CONFIRM_VIEW},
	search: {...SEARCH, view: SEARCH_VIEW},
	filter: {...FILTER, view: FILTER_VIEW},
	instruction: {...INSTRUCTION, view: INSTRUCTION_VIEW},
	command: {...COMMAND, view: COMMAND_VIEW},
	problems: {...PROBLEMS, view: PROBLEMS_VIEW},
	syncConflicts: {...SYNC_CONFLICTS, view: SYNC_CONFLICTS_VIEW},
	similar: {...SIMILAR, view: SIMILAR_VIEW},
	columns: {...COLUMNS, view: COLUMNS_VIEW},
} as const satisfies {[K in OverlayKind]: AnySlice<K>};

type Features = typeof FEATURES;

/** The slice of an overlay, seen through its own kind. */
export const sliceOf = <K extends OverlayKind>(kind: K) => FEATURES[kind] as unknown as AnySlice<K>;

/** Where keys go while this overlay is open. */
export function scopeOf(overlay: Overlay): Scope {
	return sliceOf(overlay.kind).scope(overlay as never);
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** Every effect's handler, from the features' tables: typed over the kinds, so an effect without a handler does not compile. */
export const EFFECTS: EffectTable<EffectKind> = Object.assign({}, ...Object.values(FEATURES).map(feature => feature.effects)) as UnionToIntersection<Features[keyof Features]['effects']>;

/**
 * The screen fields the features add to the state (`interface ScreenState` merged in their
 * slices), at start: the reducer's first state spreads them, so a field added without its initial
 * value does not compile.
 */
export const FEATURE_INITIAL = Object.assign({}, ...Object.values(FEATURES).map(feature => ('initial' in feature ? feature.initial : {}))) as object & UnionToIntersection<Extract<Features[keyof Features], {initial: object}>['initial']>;

const LIST_ORDER: readonly string[] = Object.keys(LIST_KEYS);

/**
 * Every key binding, feature by feature; the list's in the order of its key table (help and the
 * footer show them so), a feature's own list keys (not in the table) after them.
 */
export const BINDINGS: readonly Binding[] = Object.values(FEATURES).flatMap((feature): readonly Binding[] => feature.bindings)
	.map((binding, index) => ({binding, order: binding.scope === 'list' && LIST_ORDER.includes(binding.action) ? LIST_ORDER.indexOf(binding.action) : LIST_ORDER.length + index}))
	.sort((a, b) => a.order - b.order)
	.map(({binding}) => binding);

/** Every list key (config/key-table.ts) is claimed by a feature: one no feature claims does not compile. */
type Claimed = Extract<Features[keyof Features]['bindings'][number], {scope: 'list'}>['action'];
const everyListKeyClaimed: [ListAction] extends [Claimed] ? true : never = true;
void everyListKeyClaimed;

/** Each scope's title in help, in the registry's order. */
export const SCOPE_TITLES = Object.fromEntries(Object.values(FEATURES).flatMap(feature => Object.entries(feature.scopes))) as Record<Scope, string>;

const index = new Map<string, Binding>();
for (const binding of BINDINGS) {
	for (const name of binding.keys) index.set(`${binding.scope}:${name}`, binding);
}

/** The binding of a keypress in a scope, if any. */
export const bindingFor = (scope: Scope, input: string, key: Key): Binding | undefined => index.get(`${scope}:${keyName(input, key)}`);

/**
 * One key in a scope: Ctrl+C anywhere, a bound key's event (or, when the binding is disabled in
 * this state, its reason said in the footer), or (in a text input) a typed key. `at`: when it was pressed (ms).
 */
export function keyEvents(scope: Scope, input: string, key: Key, at?: number, state?: ScreenState): ScreenEvent[] {
	if (keyName(input, key) === 'ctrl+c') return [{type: 'interrupt'}];
	const binding = bindingFor(scope, input, key);
	if (binding) {
		const reason = state && binding.disabled ? binding.disabled(state) : null;
		if (reason) return [{type: 'say', text: reason, tone: 'warn'}];
		return [typeof binding.event === 'function' ? binding.event(input, at) : binding.event];
	}

	if (scope === 'choice') return [{type: 'pickType', input, key}];
	return scope === 'text' ? [{type: 'type', input, key}] : [];
}

/** The footer's key hints for a scope. */
export function hintsFor(scope: Scope): Array<{label: string; hint: string}> {
	return BINDINGS.filter(binding => binding.scope === scope && binding.hint).map(binding => ({label: binding.label, hint: binding.hint!}));
}

/** Every binding's help line, under its scope's title. */
export const HELP_LINES: HelpLine[] = bindingHelpLines(Object.entries(SCOPE_TITLES).map(([scope, title]) => ({scope, title})), BINDINGS);

/** The help's lines in a state: every binding's, with this channel's field hotkeys after the list's. */
export function helpLinesOf(state: Pick<ScreenState, 'hotkeys' | 'fields'>): HelpLine[] {
	return withHelpLines(HELP_LINES, hotkeyHelpLines(state.hotkeys, state.fields));
}
