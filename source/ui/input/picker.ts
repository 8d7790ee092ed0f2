import {sanitize} from '../../text/sanitize.js';
import {editableFields, filterableFields, optionChoices, shortValue} from '../edit.js';
import type {Action} from '../keys.js';
import {NONE, type EditOverlay, type Overlay} from '../state.js';
import type {KeyContext} from './context.js';

type FilterOverlay = Extract<Overlay, {kind: 'filter'}>;

/** A cursor moved one step down or up a list of `length`, wrapping around. */
const step = (cursor: number, action: 'down' | 'up', length: number) => (action === 'down' ? (cursor + 1) % length : (cursor - 1 + length) % length);

/** Keys in a picker: the filter's field and value, or the edit's field and options. */
export function onPickerKey(context: KeyContext, action: Action | undefined): void {
	const {overlay} = context;
	if (overlay.kind === 'filter') onFilterKey(context, overlay, action);
	else if (overlay.kind === 'edit' && overlay.stage === 'field') onEditFieldKey(context, overlay, action);
	else if (overlay.kind === 'edit') onEditOptionKey(context, overlay, action);
}

function onFilterKey(context: KeyContext, overlay: FilterOverlay, action: Action | undefined): void {
	const {setOverlay} = context;
	const choicesLength = overlay.stage === 'field' ? filterableFields(context.fields).length + 1 : optionChoices(overlay.field!).length;
	if (action === 'down' || action === 'up') setOverlay({...overlay, cursor: step(overlay.cursor, action, choicesLength)});
	else if (action === 'cancel') setOverlay(overlay.stage === 'value' ? {...overlay, stage: 'field', cursor: 0} : NONE);
	else if (action === 'choose' && overlay.stage === 'field') chooseFilterField(context, overlay);
	else if (action === 'choose') chooseFilterValue(context, overlay);
}

function chooseFilterField({fields, page, setOverlay, relist}: KeyContext, overlay: FilterOverlay): void {
	const field = filterableFields(fields)[overlay.cursor];
	if (!field) {
		setOverlay(NONE);
		relist({search: page.query.search}, 'Filter cleared.');
	} else {
		setOverlay({kind: 'filter', stage: 'value', cursor: 0, field});
	}
}

function chooseFilterValue({page, setOverlay, relist}: KeyContext, overlay: FilterOverlay): void {
	const field = overlay.field!;
	const choice = optionChoices(field)[overlay.cursor]!;
	const filter = {...page.query.filter};
	if (choice.value === null) delete filter[field.key];
	else filter[field.key] = choice.value;
	setOverlay(NONE);
	relist({...page.query, filter: Object.keys(filter).length > 0 ? filter : undefined}, choice.value === null ? `Filter on ${sanitize(field.label)} cleared.` : `Showing ${sanitize(field.label)} = ${shortValue(field, choice.value)}.`);
}

function onEditFieldKey({fields, setOverlay, edit}: KeyContext, overlay: EditOverlay, action: Action | undefined): void {
	const choices = editableFields(fields);
	if (action === 'down' || action === 'up') setOverlay({...overlay, fieldCursor: step(overlay.fieldCursor, action, choices.length)});
	else if (action === 'cancel') setOverlay(NONE);
	else if (action === 'choose') edit.chooseField(overlay, choices[overlay.fieldCursor]!);
}

function onEditOptionKey({setOverlay, edit}: KeyContext, overlay: EditOverlay, action: Action | undefined): void {
	const field = overlay.field!;
	const choices = optionChoices(field, overlay.chosen);
	if (action === 'down' || action === 'up') setOverlay({...overlay, optionCursor: step(overlay.optionCursor, action, choices.length)});
	else if (action === 'cancel') setOverlay({...overlay, stage: 'field', problem: null, conflict: null});
	else if (action === 'toggle' && field.type === 'multi_select') {
		const value = choices[overlay.optionCursor]!.value as string;
		setOverlay({...overlay, chosen: overlay.chosen.includes(value) ? overlay.chosen.filter(entry => entry !== value) : [...overlay.chosen, value]});
	} else if (action === 'choose') {
		if (field.type === 'multi_select') edit.submitEdit(overlay, overlay.chosen);
		else edit.submitEdit(overlay, choices[overlay.optionCursor]!.value);
	}
}
