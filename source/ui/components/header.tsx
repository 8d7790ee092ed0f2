import {Box, Text} from '#ink';
import {sanitize} from '../../text/sanitize.js';
import {useTheme} from '../theme.js';
import type {Tone} from '../state.js';
import {counted, thousands} from '../../text/format.js';

export type HeaderProps = {
	width: number;
	channel: string;
	total: number;
	position: number;
	loaded: number;
	marked: number;
	scope: string | null;
	/**
	 * Open follow-ups: the queue's entries a person resolves (F), one per refused field, so a
	 * record can hold several. The Follow-ups tab shows this same count (model/views.ts, tabCounts).
	 */
	followUps: number;
	/** Open proposals (the review queue, P); the Review tab shows this same count. */
	proposals?: number;
	run: {text: string; tone: Tone} | null;
	newItems: number;
	live: boolean;
	/** A synced channel's words (sync-marks.ts: remote, last pull, pending pushes, conflicts); absent when not synced. */
	sync?: {text: string; conflicts: number} | null;
};

const TONE_COLORS: Record<Tone, string> = {info: 'cyan', ok: 'green', warn: 'yellow', error: 'red'};


/** One line: channel, counts, open follow-ups, run status. */
export function Header(props: HeaderProps) {
	const theme = useTheme();
	const parts = [
		`${thousands(props.total)} items`,
		props.position > 0 ? `row ${thousands(props.position)}` : null,
		props.marked > 0 ? `${thousands(props.marked)} marked` : null,
		props.scope,
		props.newItems > 0 ? `+${thousands(props.newItems)} new (r)` : null,
		props.live ? null : 'not live',
	].filter(Boolean).join(' · ');
	return (
		<Box width={props.width} height={1}>
			<Text wrap="truncate-end">
				<Text bold color={theme.color('cyan')}>sift</Text>
				<Text> {sanitize(props.channel)} </Text>
				<Text dimColor>{parts}</Text>
				<Text> │ </Text>
				<Text color={props.followUps > 0 ? theme.color('yellow') : undefined} bold={props.followUps > 0}>
					{counted(props.followUps, 'follow-up')}
				</Text>
				{props.proposals ? (
					<>
						<Text> │ </Text>
						<Text color={theme.color('magenta')} bold>{counted(props.proposals, 'proposal')}</Text>
					</>
				) : null}
				{props.sync ? (
					<>
						<Text> │ </Text>
						<Text color={props.sync.conflicts > 0 ? theme.color('red') : theme.color('cyan')} bold={props.sync.conflicts > 0}>{sanitize(props.sync.text)}</Text>
					</>
				) : null}
				{props.run ? (
					<>
						<Text> │ </Text>
						<Text color={theme.color(TONE_COLORS[props.run.tone])}>{props.run.text}</Text>
					</>
				) : null}
			</Text>
		</Box>
	);
}
