import {Box, Text} from '#ink';
import type {Step} from '../../../codex/steps.js';
import type {RunSummary} from '../../history.js';
import {sanitize} from '../../../text/sanitize.js';
import {useTheme} from '../../theme.js';
import {seconds} from '../../run-status.js';
import {detailWindow, runDetailLines} from '../../run-detail.js';
import {fit} from '../../width.js';
import {counted, proposedNotApplied} from '../../../text/format.js';
import type {FeatureView} from '../feature.js';
import {RunDiffLines} from '../review/view.js';

export type HistoryProps = {
	runs: RunSummary[];
	cursor: number;
	/** The opened run's steps, when one is open. */
	open: {run: RunSummary; steps: Step[]; top?: number} | null;
	width: number;
	height: number;
};

const TONES: Record<string, string> = {ok: 'green', partial: 'yellow', cancelled: 'yellow'};

/** Past runs, newest first; Enter shows one run's steps, answer and outcome. */
export function History({runs, cursor, open, width, height}: HistoryProps) {
	const theme = useTheme();
	if (open) {
		const {run, steps} = open;
		const lines = runDetailLines(run, steps, width);
		const shown = detailWindow(lines.length, open.top ?? 0, height);
		return (
			<Box flexDirection="column" width={width} height={height} overflow="hidden">
				<Text bold wrap="truncate-end">{`${sanitize(run.runId)} · ${run.outcome ?? 'unfinished'} · ${run.durationMs === null ? '?' : seconds(run.durationMs)} · ${counted(steps.length, 'step')} · j/k PgDn/PgUp scroll · Esc back`}</Text>
				<Text dimColor wrap="truncate-end">{`› ${sanitize(run.instruction)}`}</Text>
				{shown.above > 0 || shown.below > 0 ? <Text dimColor>{shown.above > 0 ? `  ↑ ${counted(shown.above, 'more line')} above` : ' '}</Text> : null}
				{lines.slice(shown.first, shown.first + shown.count).map((line, index) => ('step' in line ? (
					<Text key={`s${shown.first + index}`} wrap="truncate-end">
						{line.step.status === 'failed' ? <Text color={theme.color('red')}>✗ </Text> : (line.step.status === 'done' ? <Text color={theme.color('green')}>✓ </Text> : <Text>· </Text>)}
						{sanitize(line.step.label)}
						{line.step.result ? <Text dimColor>{`  ${sanitize(line.step.result)}`}</Text> : null}
					</Text>
				) : (
					<Text key={`l${shown.first + index}`} wrap="truncate-end" bold={line.tone === 'bold'} color={line.tone === 'red' || line.tone === 'yellow' ? theme.color(line.tone) : undefined}>{line.text}</Text>
				)))}
				{shown.above > 0 || shown.below > 0 ? <Text dimColor>{shown.below > 0 ? `  ↓ ${counted(shown.below, 'more line')} below` : ' '}</Text> : null}
			</Box>
		);
	}

	const room = Math.max(1, height - 2);
	const start = Math.min(Math.max(0, cursor - room + 1), Math.max(0, runs.length - room));
	// A proposing run's count says nothing was written: the column is wider when one is listed.
	const countsWidth = runs.some(run => run.proposals > 0) ? 36 : 20;
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold>Run history (newest first) · Enter opens · Esc closes</Text>
			{runs.length === 0 ? <Text dimColor>No runs yet. Press c on a row to run Codex.</Text> : null}
			{runs.slice(start, start + room).map((run, index) => {
				const outcome = run.outcome ?? 'unfinished';
				return (
					<Text key={run.runId} inverse={start + index === cursor} wrap="truncate-end">
						{fit((run.startedAt ?? '').slice(0, 19).replace('T', ' '), 20)}
						<Text color={theme.color(TONES[outcome] ?? 'red')}>{fit(outcome, 14)}</Text>
						{fit(run.durationMs === null ? '' : seconds(run.durationMs), 8)}
						{fit(`${counted(run.itemIds.length, 'item')}, ${run.proposals > 0 ? proposedNotApplied(run.proposals) : counted(run.editsApplied, 'edit')}`, countsWidth)}
						<Text dimColor>{sanitize(run.instruction)}</Text>
					</Text>
				);
			})}
		</Box>
	);
}

/** The run history takes the body: the runs, one run's steps, or a run's diff. */
export const HISTORY_VIEW = {
	place: 'body',
	render(overlay, {state, layout}) {
		if (state.history.diff) return <RunDiffLines lines={state.history.diff.lines} width={layout.columns} height={layout.bodyHeight}/>;
		return <History runs={state.history.runs} cursor={overlay.cursor} open={state.history.open} width={layout.columns} height={layout.bodyHeight}/>;
	},
} satisfies FeatureView<'history'>;
