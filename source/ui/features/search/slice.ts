// `/`: the search line. Query language, `sort:` included. A term the store would refuse is said
// while typing, on the prompt line (the CLI's `bad query term` words), and Enter keeps the line
// open; a line that reads gets its match count, counted off the key path (effects.ts).

import {isRefusal, parseQuery, StoreError, type Field} from '../../../../store/index.js';
import {counted} from '../../../text/format.js';
import {baseQuery, queryText, searchText, splitSort, whereText} from '../../model/views.js';
import {NONE, type ListQuery, type Message, type ScreenState, type Transition} from '../../state.js';
import {applyTextKey, textState} from '../../text-input.js';
import {relist} from '../rows.js';
import {listBinding, none, say, type OverlayOf, type OverlaySlice} from '../feature.js';
import {SEARCH_EFFECTS} from './effects.js';

type SearchOverlay = OverlayOf<'search'>;

/** The list query the line stands for: the view's terms with the typed ones, and the sort. */
function searchQuery(state: ScreenState, line: string): ListQuery {
	const {terms, sort} = splitSort(line.slice(0, 200));
	return {...state.query, search: terms || undefined, sort: sort ?? baseQuery(state.views, state.query).sort};
}

/** Why the store would refuse the query, in the words the CLI uses (`bad query term "x": …`). The clock does not change whether a term reads. */
export function searchProblem(fields: Field[], query: ListQuery): string | undefined {
	const parsed = parseQuery(queryText(query), {fields}, {now: new Date(0)});
	return isRefusal(parsed) ? new StoreError(parsed).message : undefined;
}

/** The line typed on: its problem at once, and (when it reads) its count asked for. */
function typed(state: ScreenState, overlay: SearchOverlay, text: SearchOverlay['text']): Transition {
	if (text.value === overlay.text.value) return none({...state, overlay: {...overlay, text}});
	const query = searchQuery(state, text.value);
	const problem = searchProblem(state.fields, query);
	const next = {...state, overlay: {kind: 'search' as const, text, problem, count: overlay.count}};
	if (problem || !query.search) return none(next);
	return {state: next, effects: [{kind: 'countSearch', text: text.value, where: whereText(query)}]};
}

/** What the prompt line says after the text: the problem, else the count of what the line matches. */
export function searchNote(overlay: SearchOverlay): Message | null {
	if (overlay.problem) return {text: overlay.problem, tone: 'error'};
	if (overlay.count && overlay.count.text === overlay.text.value) return {text: counted(overlay.count.matches, 'match', 'matches'), tone: 'info'};
	return null;
}

export const SEARCH = {
	scope: () => 'text',
	effects: SEARCH_EFFECTS,
	scopes: {},
	bindings: [listBinding('search', {type: 'openSearch'})],
	keys: {
		type: (state, overlay, {input, key}) => typed(state, overlay, applyTextKey(overlay.text, input, key)),
		cancel: state => none({...state, overlay: NONE}),
		submit(state, overlay) {
			const query = searchQuery(state, overlay.text.value);
			const problem = searchProblem(state.fields, query);
			if (problem) return none({...state, overlay: {...overlay, problem}});
			const {terms, sort} = splitSort(overlay.text.value.slice(0, 200));
			const search = queryText({search: terms, sort});
			const next = say({...state, overlay: NONE}, search ? `Searching for "${search}"…` : 'Search cleared.');
			return relist(next, query, search ? `Search: "${search}" · Esc clears` : 'Search cleared.');
		},
	},
	events: {
		openSearch: state => none({...state, overlay: {kind: 'search', text: textState(searchText(state.views, state.query))}}),
		searchCounted(state, {text, count}) {
			const {overlay} = state;
			if (overlay.kind !== 'search' || overlay.text.value !== text) return none(state);
			return none({...state, overlay: {...overlay, count: count === null ? undefined : {text, matches: count}}});
		},
	},
} satisfies OverlaySlice<'search', 'openSearch' | 'searchCounted'>;
