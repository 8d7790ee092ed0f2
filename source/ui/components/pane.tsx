import {Box, Text} from '#ink';
import type {ReactNode} from 'react';
import type {Field, Item} from '../../../store/index.js';
import {sanitize, sanitizeValue} from '../../text/sanitize.js';
import {editNotes, fieldChoices, fieldRules, filterableFields, optionChoices} from '../edit.js';
import type {RunView} from '../model/runs.js';
import type {EditOverlay, Overlay, Pane} from '../state.js';
import {useTheme} from '../theme.js';
import type {Hotkeys} from '../model/hotkeys.js';
import {Detail} from './detail.js';
import {FieldEditPane} from './field-edit.js';
import {InstructionEditor} from './instruction-editor.js';
import {Picker} from './picker.js';
import {RunPane} from './run-pane.js';
import {TextField} from './text-field.js';

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
	if (overlay.kind === 'edit') return editPane(overlay, fields, width, height);
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

function editPane(overlay: EditOverlay, fields: Field[], width: number, height: number): ReactNode {
	if (overlay.stage === 'field') {
		return <Picker title={`Edit ${overlay.name} (v${overlay.version}): choose a field`} choices={fieldChoices(fields, overlay.values)} cursor={overlay.fieldCursor} width={width} height={height} notes={editNotes(overlay, fields)}/>;
	}

	if (overlay.stage === 'text') return <EditText overlay={overlay} fields={fields} width={width} height={height}/>;
	const field = overlay.field!;
	return (
		<Picker
			title={`${overlay.name} · ${field.label}${field.type === 'multi_select' ? ' (Space ticks, Enter saves)' : ''}`}
			choices={optionChoices(field, overlay.chosen)}
			cursor={overlay.optionCursor}
			multiple={field.type === 'multi_select'}
			width={width}
			height={height}
			notes={editNotes(overlay, fields)}
		/>
	);
}

/** The typed value of an edit, with the field's rules and the last refusal or conflict. */
function EditText({overlay, fields, width, height}: {overlay: EditOverlay; fields: Field[]; width: number; height: number}) {
	const theme = useTheme();
	const field = overlay.field!;
	const notes = editNotes(overlay, fields);
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate-end">{`${sanitize(overlay.name)} · ${sanitize(field.label)} (${fieldRules(field)})`}</Text>
			<TextField label="> " state={overlay.text} placeholder="empty clears the field"/>
			<Text dimColor>Enter saves · Esc back · typed exactly as you type it</Text>
			{notes.map((note, index) => <Text key={index} wrap="truncate-end" color={note.tone === 'error' ? theme.color('red') : (note.tone === 'warn' ? theme.color('yellow') : undefined)}>{note.text}</Text>)}
		</Box>
	);
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
