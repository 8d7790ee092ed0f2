// `/`: the search line. Query language, `sort:` included; a term the store would refuse is said at
// once and the line stays open.

import {baseQuery, queryProblem, queryText, searchText, splitSort} from '../model/views.js';
import {NONE} from '../state.js';
import {applyTextKey, textState} from '../text-input.js';
import {relist} from './rows.js';
import {none, say, type OverlaySlice} from './slice.js';

export const SEARCH = {
	scope: () => 'text',
	keys: {
		type: (state, overlay, {input, key}) => none({...state, overlay: {...overlay, text: applyTextKey(overlay.text, input, key)}}),
		cancel: state => none({...state, overlay: NONE}),
		submit(state, overlay) {
			const {terms, sort} = splitSort(overlay.text.value.slice(0, 200));
			const query = {...state.query, search: terms || undefined, sort: sort ?? baseQuery(state.views, state.query).sort};
			const problem = queryProblem(state.fields, queryText(query));
			if (problem) return none(say(state, problem, 'error'));
			const search = queryText({search: terms, sort});
			const next = say({...state, overlay: NONE}, search ? `Searching for "${search}"…` : 'Search cleared.');
			return relist(next, query, search ? `Search: "${search}" · Esc clears` : 'Search cleared.');
		},
	},
	events: {
		openSearch: state => none({...state, overlay: {kind: 'search', text: textState(searchText(state.views, state.query))}}),
	},
} satisfies OverlaySlice<'search', 'openSearch'>;
