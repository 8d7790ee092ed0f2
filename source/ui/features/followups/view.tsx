import {Box, Text} from '#ink';
import type {Field} from '../../../../store/index.js';
import {queueOptions} from '../../edit.js';
import type {QueueEntry} from '../../state.js';
import {counted, formatValue} from '../../../text/format.js';
import {allowedText} from '../../../text/refusal.js';
import {sanitize, sanitizeValue} from '../../../text/sanitize.js';
import type {TextState} from '../../text-input.js';
import {useTheme} from '../../theme.js';
import {TypedPreview} from '../field-edit/view.js';
import {TextField} from '../../components/text-field.js';
import {nameField, titleField} from '../../format.js';
import type {FeatureView} from '../feature.js';

export type QueueProps = {
	entry: QueueEntry | null;
	index: number;
	total: number;
	field: Field | null;
	/** The title field's key, to name the record. */
	nameKeys: string[];
	optionCursor: number;
	typing: TextState | null;
	/** When the entry was read (ms): the day a typed relative date counts from. */
	now: number;
	problem: string | null;
	confirmDismiss: boolean;
	/** Open sync conflicts of the channel: C lists them, so the queue only says how many. */
	syncConflicts?: number;
	width: number;
	height: number;
};

/** The line pointing at C, when the channel has sync conflicts open. */
function SyncConflictsLine({count}: {count: number}) {
	const theme = useTheme();
	return count > 0 ? <Text color={theme.color('yellow')} wrap="truncate-end">{`${counted(count, 'sync conflict')} — press C`}</Text> : null;
}

/** One open follow-up: the record, the field, what Codex tried, why it was refused, what is allowed. */
export function Queue(props: QueueProps) {
	const theme = useTheme();
	const {entry, field} = props;
	if (!entry) {
		return (
			<Box flexDirection="column" width={props.width} height={props.height}>
				<Text bold>Follow-ups</Text>
				<Text color={theme.color('green')}>No open follow-ups: everything Codex tried was set or resolved.</Text>
				<SyncConflictsLine count={props.syncConflicts ?? 0}/>
				<Text dimColor>Esc closes.</Text>
			</Box>
		);
	}

	const {followUp, item} = entry;
	// The record by its names (ticket, title); its internal id only when it has none, or is gone.
	const name = item ? props.nameKeys.map(key => item.values[key]).filter(value => typeof value === 'string').map(value => sanitizeValue(value)).join(' · ') : '';
	const current = item && field ? formatValue(field, item.values[followUp.key]).map(segment => segment.text).join('') : '';
	const options = queueOptions(entry, field);
	const range = allowedText({min: followUp.min, max: followUp.max});
	const optionRoom = Math.max(1, props.height - 9);
	const start = Math.min(Math.max(0, props.optionCursor - optionRoom + 1), Math.max(0, options.length - optionRoom));
	return (
		<Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
			<Text bold wrap="truncate-end">{`Follow-up ${props.index + 1} of ${props.total} · ${name || sanitize(followUp.item_id)}${item ? ` · v${item.version}` : ' · (record gone)'}`}</Text>
			<Text wrap="truncate-end">
				<Text dimColor>Field: </Text>
				<Text bold>{sanitize(field?.label ?? followUp.key)}</Text>
				<Text dimColor>{` (${sanitize(followUp.key)}) · now: `}</Text>
				<Text>{current || '—'}</Text>
			</Text>
			<Text wrap="truncate-end">
				<Text dimColor>Codex tried: </Text>
				<Text color={theme.color('red')}>{sanitizeValue(followUp.attempted) || '""'}</Text>
				{followUp.run_id ? <Text dimColor>{`  (${sanitize(followUp.run_id)})`}</Text> : null}
			</Text>
			<Text wrap="truncate-end">
				<Text dimColor>Why: </Text>
				<Text>{sanitize(followUp.message)}</Text>
			</Text>
			{range ? <Text wrap="truncate-end"><Text dimColor>Allowed: </Text>{sanitize(range)}</Text> : null}
			{options.length > 0 ? <Text dimColor>Allowed values:</Text> : null}
			{options.slice(start, start + optionRoom).map((option, index) => {
				const selected = start + index === props.optionCursor && !props.typing;
				return (
					<Text key={option.value} inverse={selected} wrap="truncate-end">
						{selected ? '› ' : '  '}
						<Text color={theme.color(option.color)}>{sanitize(option.label)}</Text>
						<Text dimColor>{`  ${sanitize(option.value)}`}</Text>
					</Text>
				);
			})}
			{props.typing ? <TextField label="Value: " state={props.typing} placeholder="type a value, Enter sets it, empty clears"/> : null}
			{props.typing ? <TypedPreview field={field} text={props.typing.value} now={props.now}/> : null}
			{props.problem ? <Text color={theme.color('red')} wrap="wrap">{props.problem}</Text> : null}
			{props.confirmDismiss ? <Text color={theme.color('yellow')} bold>Dismiss this follow-up? It will not come back unless Codex tries again. y/n</Text> : null}
			<SyncConflictsLine count={props.syncConflicts ?? 0}/>
		</Box>
	);
}

/** The follow-up queue takes the body: the entry read afresh, its field, what names its record. */
export const FOLLOWUPS_VIEW = {
	place: 'body',
	render(overlay, {state, layout}) {
		const {entry, followUps} = state.queue;
		const field = entry ? state.fields.find(each => each.key === entry.followUp.key) ?? null : null;
		const nameKeys = [nameField(state.fields)?.key, titleField(state.fields)?.key].filter((key): key is string => key !== undefined);
		return <Queue entry={entry} index={overlay.index} total={followUps.length} field={field} nameKeys={nameKeys} optionCursor={overlay.optionCursor} typing={overlay.typing} now={overlay.now ?? 0} problem={overlay.problem} confirmDismiss={overlay.confirmDismiss} syncConflicts={state.sync?.conflicts ?? 0} width={layout.columns} height={layout.bodyHeight}/>;
	},
} satisfies FeatureView<'queue'>;
