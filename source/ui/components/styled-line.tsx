import {Text} from '#ink';
import {memo} from 'react';
import type {StyledLine} from '../spans.js';
import {styledText} from './styled-text.js';
import {useTheme} from '../theme.js';

/** One line of styled spans (spans.ts) as one Ink text (styled-text.ts); its colors go through the theme (NO_COLOR). */
export const Line = memo(function Line({line}: {line: StyledLine}) {
	const theme = useTheme();
	return (
		<Text wrap="truncate-end">
			{line.length === 0 ? ' ' : styledText(line, theme)}
		</Text>
	);
});
