import {Box, Text} from '#ink';
import type {Field} from '../../../../store/index.js';
import {sanitize} from '../../../text/sanitize.js';
import {bulkFields, fieldChoices, fieldRules, typedPreview} from '../../edit.js';
import type {Hotkeys} from '../../model/hotkeys.js';
import type {PickerState} from '../../model/picker.js';
import type {FieldEditOverlay} from '../../state.js';
import {useTheme} from '../../theme.js';
import type {Choice} from '../../edit.js';
import {Picker} from '../../components/picker.js';
import {TextField} from '../../components/text-field.js';
import type {FeatureView} from '../feature.js';

type Props = {overlay: FieldEditOverlay; fields: Field[]; hotkeys: Hotkeys; width: number; height: number};

/** Who the edit writes to: the row's name, or how many marked rows. */
const targetsOf = (overlay: FieldEditOverlay) => (overlay.bulk ? `${overlay.targets.length} marked` : sanitize(overlay.targets[0]?.name ?? ''));

/** A field edit's pane: the field chooser (`e`), the value picker, or the one-line input. */
export function FieldEditPane({overlay, fields, hotkeys, width, height}: Props) {
	if (overlay.field === null && !overlay.bulk) {
		// One row: every settable field with its value in the record as read.
		const target = overlay.targets[0]!;
		return <Picker title={`Edit ${target.name ?? target.id} (v${target.version}): choose a field`} choices={fieldChoices(fields, target.values)} cursor={overlay.fieldCursor} width={width} height={height}/>;
	}

	if (overlay.field === null) {
		const choices: Choice[] = bulkFields(fields).map(field => ({key: field.key, segments: [{text: sanitize(field.label)}], hint: hotkeys[field.key] ? `(${hotkeys[field.key]})` : ''}));
		return <Picker title={`Edit ${targetsOf(overlay)} rows: which field?`} choices={choices} cursor={overlay.fieldCursor} width={width} height={height}/>;
	}

	if (overlay.picker) return <ValuePicker overlay={overlay} field={overlay.field} picker={overlay.picker} width={width} height={height}/>;
	return <FieldInput overlay={overlay} field={overlay.field} width={width} height={height}/>;
}

function ValuePicker({overlay, field, picker, width, height}: {overlay: FieldEditOverlay; field: Field; picker: PickerState; width: number; height: number}) {
	const colors = new Map((field.config.options ?? []).map(option => [option.value, option.color]));
	const choices: Choice[] = picker.entries.map((entry, index) => ({
		key: `${index}`,
		segments: [{text: index < 9 ? `${index + 1} ` : '  '}, {text: sanitize(entry.label), color: typeof entry.value === 'string' ? colors.get(entry.value) : undefined}],
		hint: entry.none || typeof entry.value !== 'string' ? '' : sanitize(entry.value),
		checked: picker.multiple && typeof entry.value === 'string' && picker.checked.includes(entry.value),
	}));
	const notes: Array<{text: string; tone?: 'error' | 'warn' | 'info'}> = [];
	if (overlay.notice) notes.push({text: sanitize(overlay.notice), tone: 'warn'});
	notes.push({text: picker.multiple ? '1–9 or Space tick · Enter saves · Esc' : `1–9 pick · type to jump${picker.typed ? ` (${sanitize(picker.typed)})` : ''} · Enter · Esc`, tone: 'info'});
	return <Picker title={`${targetsOf(overlay)} · ${sanitize(field.label)}`} choices={choices} cursor={picker.cursor} multiple={picker.multiple} width={width} height={height} notes={notes}/>;
}

function FieldInput({overlay, field, width, height}: {overlay: FieldEditOverlay; field: Field; width: number; height: number}) {
	const theme = useTheme();
	const text = overlay.text!;
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate-end">{`${targetsOf(overlay)} · ${sanitize(field.label)} (${fieldRules(field)}${field.type === 'date' ? ', today, friday, +3d, +2w' : ''})`}</Text>
			<TextField label="> " state={text} placeholder="empty clears the field"/>
			<TypedPreview field={field} text={text.value} now={overlay.now}/>
			{(overlay.notice ?? '').split('\n').filter(Boolean).map((line, index) => <Text key={index} wrap="truncate-end" color={theme.color('yellow')}>{sanitize(line)}</Text>)}
			<Text dimColor wrap="truncate-end">Enter saves · Esc back</Text>
		</Box>
	);
}

/** The line under a one-line input of a field: the date its words name, before Enter writes it (edit.ts, typedPreview). */
export function TypedPreview({field, text, now}: {field: Field | null; text: string; now: number}) {
	const theme = useTheme();
	const preview = typedPreview(field, text, now);
	return preview ? <Text wrap="truncate-end" color={preview.tone ? theme.color('yellow') : theme.color('green')}>{preview.text}</Text> : null;
}

/** The field edit is drawn in the pane. */
export const FIELD_EDIT_VIEW = {
	place: 'pane',
	render: (overlay, {state, layout}) => <FieldEditPane overlay={overlay} fields={state.fields} hotkeys={state.hotkeys} width={layout.paneWidth} height={layout.paneHeight}/>,
} satisfies FeatureView<'fieldEdit'>;
