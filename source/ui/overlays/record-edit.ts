// `e` on one row: the record read afresh, then choose a field and pick or type its value.

import type {Field} from '../../../store/index.js';
import {editableFields, isPicked, optionChoices, shortValue} from '../edit.js';
import {editableText, parseTyped} from '../format.js';
import {NONE, type EditOverlay, type ScreenState, type Transition} from '../state.js';
import {applyTextKey, textState} from '../text-input.js';
import {nameOf} from './rows.js';
import {none, say, wrap, type OverlaySlice} from './slice.js';

function chooseField(state: ScreenState, overlay: EditOverlay, field: Field): ScreenState {
	const value = overlay.values[field.key];
	if (isPicked(field)) {
		const at = optionChoices(field).findIndex(choice => choice.value === value);
		const chosen = Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
		return {...state, overlay: {...overlay, stage: 'options', field, optionCursor: Math.max(0, at), chosen, problem: null, conflict: null}};
	}

	return {...state, overlay: {...overlay, stage: 'text', field, text: textState(editableText(value)), problem: null, conflict: null}};
}

function submitEdit(state: ScreenState, overlay: EditOverlay, value: unknown): Transition {
	const field = overlay.field!;
	const before = overlay.values[field.key];
	if (JSON.stringify(before ?? null) === JSON.stringify(value ?? null)) {
		return none(say({...state, overlay: NONE}, `${overlay.name}: ${field.label} is already ${shortValue(field, value)}; nothing changed.`));
	}

	return {state, effects: [{kind: 'edit', request: {itemId: overlay.itemId, name: overlay.name, key: field.key, value, before, version: overlay.version, origin: 'picker'}}]};
}

export const RECORD_EDIT = {
	scope: overlay => (overlay.stage === 'text' ? 'text' : 'picker'),
	keys: {
		cursor(state, overlay, {delta}) {
			const count = overlay.stage === 'field' ? editableFields(state.fields).length : optionChoices(overlay.field!, overlay.chosen).length;
			return none(overlay.stage === 'field'
				? {...state, overlay: {...overlay, fieldCursor: wrap(overlay.fieldCursor, delta, count)}}
				: {...state, overlay: {...overlay, optionCursor: wrap(overlay.optionCursor, delta, count)}});
		},
		choose(state, overlay) {
			if (overlay.stage === 'field') return none(chooseField(state, overlay, editableFields(state.fields)[overlay.fieldCursor]!));
			const field = overlay.field!;
			const value = field.type === 'multi_select' ? overlay.chosen : optionChoices(field, overlay.chosen)[overlay.optionCursor]!.value;
			return submitEdit(state, overlay, value);
		},
		toggle(state, overlay) {
			if (overlay.stage !== 'options' || overlay.field?.type !== 'multi_select') return none(state);
			const value = optionChoices(overlay.field, overlay.chosen)[overlay.optionCursor]!.value as string;
			const chosen = overlay.chosen.includes(value) ? overlay.chosen.filter(entry => entry !== value) : [...overlay.chosen, value];
			return none({...state, overlay: {...overlay, chosen}});
		},
		cancel: (state, overlay) => none({...state, overlay: overlay.stage === 'field' ? NONE : {...overlay, stage: 'field', problem: null, conflict: null}}),
		submit: (state, overlay) => submitEdit(state, overlay, parseTyped(overlay.field!, overlay.text.value)),
		type: (state, overlay, {input, key}) => none(overlay.stage === 'text' ? {...state, overlay: {...overlay, text: applyTextKey(overlay.text, input, key)}} : state),
	},
	events: {
		editOpened(state, {item}) {
			const overlay: EditOverlay = {kind: 'edit', itemId: item.id, name: nameOf(state.fields, item.values, item.id), version: item.version, values: item.values, stage: 'field', fieldCursor: 0, field: null, optionCursor: 0, chosen: [], text: textState(), problem: null, conflict: null};
			return none({...state, overlay, awaiting: null});
		},
	},
} satisfies OverlaySlice<'edit', 'editOpened'>;
