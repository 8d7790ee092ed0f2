import type {ReactNode} from 'react';
import type {Field, Item} from '../../../store/index.js';
import {sanitize, sanitizeValue} from '../../text/sanitize.js';
import {filterableFields, optionChoices} from '../edit.js';
import type {RunView} from '../model/runs.js';
import type {Overlay, Pane} from '../state.js';
import type {Hotkeys} from '../model/hotkeys.js';
import {Detail} from './detail.js';
import {FieldEditPane} from './field-edit.js';
import {InstructionEditor} from './instruction-editor.js';
import {Picker} from './picker.js';
import {RunPane} from './run-pane.js';

export type PaneProps = {
	overlay: Overlay;
	pane: Pane;
	fields: Field[];
	/** The list's filter, shown beside the filter's fields. */
	filter: Record<string, unknown> | undefined;
	/** A record's name for the instruction's targets. */
	nameOfRow: (id: string) => string;
	run: RunView | null;
	now: number;
	frame: number;
	detail: {item: Item | null; error: string | null; flagged: ReadonlySet<string>};
	scroll: number;
	width: number;
	height: number;
	/** Field hotkeys, shown in the field chooser of a bulk edit. */
	hotkeys?: Hotkeys;
};

/** What the pane beside (or under) the list shows: an overlay's picker or editor, the run, or the record; null when closed. */
export function paneFor(props: PaneProps): ReactNode | null {
	const {overlay, pane, fields, width, height} = props;
	if (overlay.kind === 'fieldEdit') return <FieldEditPane overlay={overlay} fields={fields} hotkeys={props.hotkeys ?? {}} width={width} height={height}/>;
	if (overlay.kind === 'filter') return filterPane(overlay, fields, props.filter, width, height);
	if (overlay.kind === 'instruction') {
		return <InstructionEditor text={overlay.text} targets={overlay.itemIds.length === 1 ? `${props.nameOfRow(overlay.itemIds[0]!)}` : `${overlay.itemIds.length} marked records`} width={width} height={height}/>;
	}

	if (pane === 'run' && props.run) return <RunPane run={props.run} now={props.now} frame={props.frame} width={width} height={height}/>;
	if (pane === 'detail' || pane === 'run') {
		const {detail} = props;
		return <Detail fields={fields} item={detail.item} error={detail.error} flagged={detail.flagged} width={width} height={height} scroll={props.scroll}/>;
	}

	return null;
}

function filterPane(overlay: Extract<Overlay, {kind: 'filter'}>, fields: Field[], filter: Record<string, unknown> | undefined, width: number, height: number): ReactNode {
	if (overlay.stage === 'field') {
		const choices = [...filterableFields(fields).map(field => ({key: field.key, segments: [{text: sanitize(field.label)}], hint: filter?.[field.key] === undefined ? '' : `= ${sanitizeValue(filter[field.key])}`})), {key: '__clear', segments: [{text: '(no filter)'}]}];
		return <Picker title="Filter by which field?" choices={choices} cursor={overlay.cursor} width={width} height={height}/>;
	}

	const field = overlay.field!;
	const choices = optionChoices(field).map(choice => (choice.value === null ? {...choice, segments: [{text: '(any)'}], hint: ''} : choice));
	return <Picker title={`Show rows whose ${field.label} is…`} choices={choices} cursor={overlay.cursor} width={width} height={height}/>;
}
