// `f`'s pickers in the pane: which field, then which of its values.

import type {ReactNode} from 'react';
import type {Field} from '../../../../store/index.js';
import {sanitize, sanitizeValue} from '../../../text/sanitize.js';
import {Picker} from '../../components/picker.js';
import {filterableFields, optionChoices} from '../../edit.js';
import type {FeatureView, OverlayOf} from '../feature.js';

function filterPane(overlay: OverlayOf<'filter'>, fields: Field[], filter: Record<string, unknown> | undefined, width: number, height: number): ReactNode {
	if (overlay.stage === 'field') {
		const choices = [...filterableFields(fields).map(field => ({key: field.key, segments: [{text: sanitize(field.label)}], hint: filter?.[field.key] === undefined ? '' : `= ${sanitizeValue(filter[field.key])}`})), {key: '__clear', segments: [{text: '(no filter)'}]}];
		return <Picker title="Filter by which field?" choices={choices} cursor={overlay.cursor} width={width} height={height}/>;
	}

	const field = overlay.field!;
	const choices = optionChoices(field).map(choice => (choice.value === null ? {...choice, segments: [{text: '(any)'}], hint: ''} : choice));
	return <Picker title={`Show rows whose ${field.label} is…`} choices={choices} cursor={overlay.cursor} width={width} height={height}/>;
}

export const FILTER_VIEW = {
	place: 'pane',
	render: (overlay, {state, layout}) => filterPane(overlay, state.fields, state.query.filter, layout.paneWidth, layout.paneHeight),
} satisfies FeatureView<'filter'>;
