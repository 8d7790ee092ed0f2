import {Box, Text} from '#ink';
import type {ReactNode} from 'react';
import {sanitize} from '../../text/sanitize.js';
import {cellWidth, truncate} from '../../text/width.js';
import {useTheme} from '../theme.js';
import type {Message} from '../state.js';

export type FooterProps = {
	width: number;
	hints: Array<{label: string; hint: string}>;
	message: Message | null;
	/** Replaces the message line: a prompt (search, a question). */
	prompt?: ReactNode;
	/** Said on the prompt line after the prompt (a search's bad term, its match count): the prompt hides the message line. */
	promptNote?: Message | null;
};

const TONES = {info: undefined, ok: 'green', warn: 'yellow', error: 'red'} as const;

/**
 * An error too long for its line, on two (the hints give way while it shows), broken
 * at a space and cut at the end of the second: a refusal says its fix first, so the fix shows.
 */
export function twoLines(text: string, width: number): [string, string] | null {
	if (cellWidth(text) <= width) return null;
	const head = truncate(text, width, '');
	const space = head.lastIndexOf(' ');
	const first = space > width / 2 ? head.slice(0, space) : head;
	return [first, truncate(text.slice(first.length).trimStart(), width)];
}

/**
 * Two lines: the last message (or a prompt), then the key hints of what has the keys. Messages
 * are raw text (record values, store errors) and are escaped here, the one place they are drawn.
 */
export function Footer(props: FooterProps) {
	const theme = useTheme();
	const {message} = props;
	const long = !props.prompt && message?.tone === 'error' ? twoLines(sanitize(message.text), props.width) : null;
	if (long && message) {
		return (
			<Box flexDirection="column" width={props.width} height={2}>
				{long.map((line, index) => <Text key={index} wrap="truncate-end" color={theme.color(TONES[message.tone])}>{line}</Text>)}
			</Box>
		);
	}

	return (
		<Box flexDirection="column" width={props.width} height={2}>
			{props.prompt ? (
				<Box width={props.width} height={1}>
					<Box flexShrink={1}>{props.prompt}</Box>
					{props.promptNote ? (
						<Box flexGrow={1} flexShrink={1} flexBasis={0} marginLeft={2}>
							<Text wrap="truncate-end" color={theme.color(TONES[props.promptNote.tone])}>{sanitize(props.promptNote.text)}</Text>
						</Box>
					) : null}
				</Box>
			) : (
				<Text wrap="truncate-end" color={props.message ? theme.color(TONES[props.message.tone]) : undefined}>
					{props.message ? sanitize(props.message.text) : ' '}
				</Text>
			)}
			<Text wrap="truncate-end" dimColor>
				{props.hints.map(({label, hint}) => `${label} ${hint}`).join(' · ')}
			</Text>
		</Box>
	);
}
