// `f`: filter by a field's value, in two steps (the field, then its value).

import type {Field} from '../../../../store/index.js';
import {filterableFields, optionChoices, shortValue} from '../../edit.js';
import {NONE, type ScreenState, type Transition} from '../../state.js';
import {relist} from '../rows.js';
import {listBinding, none, wrap, type OverlayOf, type OverlaySlice} from '../feature.js';

type FilterOverlay = OverlayOf<'filter'>;

const choiceCount = (state: ScreenState, overlay: FilterOverlay) => (overlay.stage === 'field' ? filterableFields(state.fields).length + 1 : optionChoices(overlay.field!).length);

function chooseField(state: ScreenState, cursor: number): Transition {
	const field = filterableFields(state.fields)[cursor];
	if (!field) return relist({...state, overlay: NONE}, {...state.query, filter: undefined}, 'Filter cleared.');
	return none({...state, overlay: {kind: 'filter', stage: 'value', cursor: 0, field}});
}

function chooseValue(state: ScreenState, field: Field, cursor: number): Transition {
	const choice = optionChoices(field)[cursor]!;
	const filter = {...state.query.filter};
	if (choice.value === null) delete filter[field.key];
	else filter[field.key] = choice.value;
	const query = {...state.query, filter: Object.keys(filter).length > 0 ? filter : undefined};
	return relist({...state, overlay: NONE}, query, choice.value === null ? `Filter on ${field.label} cleared.` : `Showing ${field.label} = ${shortValue(field, choice.value)}.`);
}

export const FILTER = {
	scope: () => 'picker',
	effects: {},
	scopes: {},
	bindings: [listBinding('filter', {type: 'openFilter'})],
	keys: {
		cursor: (state, overlay, {delta}) => none({...state, overlay: {...overlay, cursor: wrap(overlay.cursor, delta, choiceCount(state, overlay))}}),
		choose: (state, overlay) => (overlay.stage === 'field' ? chooseField(state, overlay.cursor) : chooseValue(state, overlay.field!, overlay.cursor)),
		cancel: (state, overlay) => none({...state, overlay: overlay.stage === 'value' ? {...overlay, stage: 'field', cursor: 0} : NONE}),
	},
	events: {
		openFilter: state => none({...state, overlay: {kind: 'filter', stage: 'field', cursor: 0, field: null}}),
	},
} satisfies OverlaySlice<'filter', 'openFilter'>;
