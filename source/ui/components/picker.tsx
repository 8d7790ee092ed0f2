import {Box, Text} from '#ink';
import {sanitize} from '../../text/sanitize.js';
import type {Choice} from '../edit.js';
import {useTheme} from '../theme.js';


export type PickerProps = {
	title: string;
	choices: Choice[];
	cursor: number;
	height: number;
	width: number;
	multiple?: boolean;
	/** Lines under the choices: a refusal, a conflict, help. Already safe. */
	notes?: Array<{text: string; tone?: 'error' | 'warn' | 'info'}>;
};

/** A vertical list of choices with a cursor; scrolls to keep the cursor visible. */
export function Picker(props: PickerProps) {
	const theme = useTheme();
	const notes = props.notes ?? [];
	const room = Math.max(1, props.height - 1 - notes.length);
	const start = Math.min(Math.max(0, props.cursor - room + 1), Math.max(0, props.choices.length - room));
	const visible = props.choices.slice(start, start + room);
	return (
		<Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
			<Text bold wrap="truncate-end">{sanitize(props.title)}</Text>
			{visible.map((choice, index) => {
				const selected = start + index === props.cursor;
				return (
					<Text key={choice.key} wrap="truncate-end" inverse={selected}>
						{selected ? '› ' : '  '}
						{props.multiple ? (choice.checked ? '[x] ' : '[ ] ') : ''}
						{choice.segments.map((segment, at) => (
							<Text key={at} color={segment.raw ? undefined : theme.color(segment.color)} dimColor={segment.raw}>{segment.text}</Text>
						))}
						{choice.hint ? <Text dimColor>{`  ${choice.hint}`}</Text> : null}
					</Text>
				);
			})}
			{notes.map((note, index) => (
				<Text key={`note${index}`} wrap="truncate-end" color={note.tone === 'error' ? theme.color('red') : (note.tone === 'warn' ? theme.color('yellow') : undefined)} dimColor={note.tone === 'info'}>
					{note.text}
				</Text>
			))}
		</Box>
	);
}
