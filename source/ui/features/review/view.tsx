import {Box, Text} from '#ink';
import {proposedDuplicate, type Field, type Item} from '../../../../store/index.js';
import type {ProposalRow} from '../../../../store/proposals.js';
import {valueText} from '../../../text/review.js';
import {sanitize} from '../../../text/sanitize.js';
import {wrapLines} from '../../components/detail.js';
import {titleField} from '../../format.js';
import type {ReviewOverlay} from '../../state.js';
import {useTheme} from '../../theme.js';
import type {FeatureView} from '../feature.js';
import {nameOf} from '../rows.js';

export type ReviewProps = {
	overlay: ReviewOverlay;
	proposals: ProposalRow[];
	/** The current proposal's item read afresh (null until read, or when it is gone). */
	item: Item | null;
	/** The record a proposed duplicate names, read with the item (null until read, or when it is gone). */
	target?: Item | null;
	fields: Field[];
	/** How the list names an item (its ticket), from its values. */
	/** A record's name (its unique key) from its item, else from the loaded rows; its id only when neither has one. */
	nameOf: (item: Item | null, id: string) => string;
	width: number;
	height: number;
};

/**
 * The review queue: the proposal under the cursor, each field numbered (its digit accepts it
 * alone) as current → proposed, the value now where the item changed since, the reason and the
 * run; then the proposals after it, one line each. All record text is escaped (text/review.ts).
 */
/** A confidence as a person reads it: two decimals, 0.00 to 1.00. */
export const confidenceText = (confidence: number) => confidence.toFixed(2);

/** Lines a record's side of a proposed duplicate takes: its name and title, then the start of its body. */
const SIDE_LINES = 4;

/** One side of a proposed duplicate: the record's name and title, then the start of its long text, escaped. */
function sideLines(fields: Field[], item: Item | null, name: string, width: number): string[] {
	if (!item) return [name, '(not read yet, or gone)'];
	const title = titleField(fields);
	const body = fields.find(field => field.type === 'text' && field.config.long);
	const head = `${name}${title && typeof item.values[title.key] === 'string' ? ` · ${sanitize(item.values[title.key] as string)}` : ''}`;
	const text = body && typeof item.values[body.key] === 'string' ? sanitize((item.values[body.key] as string).replaceAll(/\s+/g, ' ').trim()) : '';
	return [head, ...wrapLines(text, Math.max(4, width)).slice(0, SIDE_LINES - 1)];
}

/** A proposed duplicate beside the record it names, each as its title and the start of its body. */
function DuplicatePair({fields, item, target, itemName, targetName, width}: {fields: Field[]; item: Item | null; target: Item | null; itemName: string; targetName: string; width: number}) {
	const half = Math.max(8, Math.floor((width - 3) / 2));
	const column = (title: string, lines: string[]) => (
		<Box flexDirection="column" width={half}>
			<Text dimColor wrap="truncate-end">{title}</Text>
			{lines.map((line, index) => <Text key={index} wrap="truncate-end" bold={index === 0}>{line}</Text>)}
		</Box>
	);
	return (
		<Box flexDirection="row" width={width}>
			{column('this record', sideLines(fields, item, itemName, half))}
			<Box width={3}><Text dimColor>{' │ '}</Text></Box>
			{column('duplicate of', sideLines(fields, target, targetName, half))}
		</Box>
	);
}

export function Review({overlay, proposals, item, target = null, fields, nameOf, width, height}: ReviewProps) {
	const theme = useTheme();
	const channel = {fields} as Parameters<typeof valueText>[0];
	const proposal = proposals[overlay.index];
	if (!proposal) {
		return (
			<Box flexDirection="column" width={width} height={height}>
				<Text bold>Review</Text>
				<Text color={theme.color('green')}>No open proposals here: runs in propose mode (:propose on) leave theirs in this queue.</Text>
				<Text dimColor>Esc closes.</Text>
			</Box>
		);
	}

	const label = (key: string) => sanitize(fields.find(field => field.key === key)?.label ?? key);
	const changed = item !== null && item.version !== proposal.base_version;
	const entries = Object.entries(proposal.changes);
	const problem = overlay.problem ?? [];
	const rest = proposals.slice(overlay.index + 1);
	const duplicate = proposedDuplicate({id: proposal.channel_id, name: '', fields}, proposal.changes);
	const pairLines = duplicate ? SIDE_LINES + 1 : 0;
	const room = Math.max(0, height - 4 - entries.length - problem.length - (proposal.reason ? 1 : 0) - pairLines);
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold wrap="truncate-end">{`Proposal ${overlay.index + 1} of ${proposals.length} · #${proposal.id} · ${sanitize(nameOf(item, proposal.item_id))} · based on v${proposal.base_version}${changed ? `, now v${item.version}` : ''}${proposal.confidence === null ? '' : ` · confidence ${confidenceText(proposal.confidence)}`}${proposal.run_id ? ` · run ${sanitize(proposal.run_id)}` : ''}`}</Text>
			{entries.map(([key, change], index) => {
				const now = item?.values[key] ?? null;
				const moved = item !== null && JSON.stringify(now) !== JSON.stringify(change.from ?? null);
				return (
					<Text key={key} wrap="truncate-end">
						<Text dimColor>{index < 9 ? `${index + 1} ` : '  '}</Text>
						<Text bold>{label(key)}</Text>
						<Text>{`: ${valueText(channel, key, change.from)} → `}</Text>
						<Text color={theme.color('green')} bold>{valueText(channel, key, change.to)}</Text>
						{moved ? <Text color={theme.color('yellow')}>{`  (now ${valueText(channel, key, now)})`}</Text> : null}
					</Text>
				);
			})}
			{duplicate ? <DuplicatePair fields={fields} item={item} target={target?.id === duplicate.targetId ? target : null} itemName={sanitize(nameOf(item, proposal.item_id))} targetName={sanitize(nameOf(target?.id === duplicate.targetId ? target : null, duplicate.targetId))} width={width}/> : null}
			{proposal.reason ? <Text wrap="truncate-end" dimColor>{`why: ${sanitize(proposal.reason.replaceAll(/\s+/g, ' '))}`}</Text> : null}
			{problem.map((line, index) => <Text key={`p${index}`} wrap="truncate-end" color={theme.color('yellow')}>{line}</Text>)}
			<Text dimColor wrap="truncate-end">{overlay.confirm ? 'a or y: write it over the current values · d declines · n next' : 'a accept · d decline · 1–9 one field · A accept all shown · n/p move · Esc close'}</Text>
			{rest.slice(0, room).map(next => (
				<Text key={next.id} dimColor wrap="truncate-end">{`  #${next.id} ${sanitize(nameOf(null, next.item_id))}${next.confidence === null ? '' : ` (${confidenceText(next.confidence)})`}: ${Object.entries(next.changes).map(([key, change]) => `${label(key)} → ${valueText(channel, key, change.to)}`).join(', ')}`}</Text>
			))}
		</Box>
	);
}

/** `R` → a run → `D` or `U`: the run's diff, or what a revert would do, as text/review.ts words it (escaped there). */
export function RunDiffLines({lines, width, height}: {lines: string[]; width: number; height: number}) {
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			{lines.slice(0, height).map((line, index) => <Text key={index} wrap="truncate-end" bold={index === 0}>{line}</Text>)}
		</Box>
	);
}

/** The review queue takes the body. */
export const REVIEW_VIEW = {
	place: 'body',
	render: (overlay, {state, layout}) => <Review overlay={overlay} proposals={state.review.proposals} item={state.review.item} target={state.review.target ?? null} fields={state.fields} nameOf={(item, id) => nameOf(state.fields, item?.values ?? state.window.rows.find(row => row.id === id)?.preview, id)} width={layout.columns} height={layout.bodyHeight}/>,
} satisfies FeatureView<'review'>;
