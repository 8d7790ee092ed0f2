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
			{props.prompt ?? (
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
