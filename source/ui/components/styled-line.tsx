import {Text} from '#ink';
import {memo} from 'react';
import type {StyledLine} from '../spans.js';
import {useTheme} from '../theme.js';

/** One line of styled spans (spans.ts) as Ink text; its colors go through the theme (NO_COLOR). */
export const Line = memo(function Line({line}: {line: StyledLine}) {
	const theme = useTheme();
	return (
		<Text wrap="truncate-end">
			{line.length === 0 ? ' ' : line.map((span, index) => (
				<Text key={index} bold={span.bold} italic={span.italic} underline={span.underline} strikethrough={span.strikethrough} dimColor={span.dim} inverse={span.inverse} color={theme.color(span.color)}>{span.text}</Text>
			))}
		</Text>
	);
});
