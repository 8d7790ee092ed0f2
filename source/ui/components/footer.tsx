import {Box, Text} from '#ink';
import type {ReactNode} from 'react';
import {sanitize} from '../../text/sanitize.js';
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
 * Two lines: the last message (or a prompt), then the key hints of what has the keys. Messages
 * are raw text (record values, store errors) and are escaped here, the one place they are drawn.
 */
export function Footer(props: FooterProps) {
	const theme = useTheme();
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
