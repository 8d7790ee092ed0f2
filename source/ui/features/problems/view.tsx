// `:problems`: the config file's problems, each from the start of a line and wrapped, scrolled.

import {Box, Text} from '#ink';
import {sanitize} from '../../../text/sanitize.js';
import {problemLines, PROBLEMS_TITLE_ROWS} from './slice.js';
import type {FeatureView} from '../feature.js';

export type ProblemsProps = {problems: readonly string[]; scroll: number; width: number; height: number};

/** `:problems`: every problem of the config file, each from the start of a line and wrapped, never cut. */
export function Problems({problems, scroll, width, height}: ProblemsProps) {
	const lines = problemLines(problems.map(problem => sanitize(problem)), width);
	const room = Math.max(1, height - PROBLEMS_TITLE_ROWS);
	const from = Math.min(Math.max(0, scroll), Math.max(0, lines.length - room));
	const shown = lines.slice(from, from + room);
	const where = lines.length > room ? ` · lines ${from + 1}–${from + shown.length} of ${lines.length}, j/k scroll` : '';
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate-end">{`Config file problems: ${problems.length} — Esc closes${where}`}</Text>
			{shown.map((line, index) => <Text key={from + index} wrap="truncate-end">{line}</Text>)}
		</Box>
	);
}

/** `:problems` takes the body. */
export const PROBLEMS_VIEW = {
	place: 'body',
	render: (overlay, {state, layout}) => <Problems problems={state.configProblems} scroll={overlay.scroll} width={layout.columns} height={layout.bodyHeight}/>,
} satisfies FeatureView<'problems'>;
